//! The chart: for each benchmark, each implementation's throughput as a
//! fraction of the limit measured in the same run (the device's for kiln,
//! the hand-written GLSL, IREE's Vulkan backend and the vendor's BLAS; the
//! host's for IREE's CPU backend), drawn with plotters' SVG backend (text
//! stays text: no font files are needed).

use std::path::Path;

use anyhow::{anyhow, Result};
use plotters::prelude::*;

use super::report::{
    Report, GLSL, GLSL_TEXEL, GLSL_WORDS, IREE_CPU, IREE_VULKAN, KILN, KILN_MEMREF, VENDOR,
};

/// Series, in drawing order, with their colours.
const SERIES: [(&str, RGBColor); 8] = [
    (KILN, RGBColor(0xd9, 0x5f, 0x02)),
    (KILN_MEMREF, RGBColor(0xfd, 0xb4, 0x62)),
    (GLSL, RGBColor(0x75, 0x70, 0xb3)),
    (GLSL_TEXEL, RGBColor(0xbc, 0xbd, 0xdc)),
    (GLSL_WORDS, RGBColor(0xde, 0xde, 0xee)),
    (IREE_VULKAN, RGBColor(0x1b, 0x9e, 0x77)),
    (IREE_CPU, RGBColor(0xa6, 0xd8, 0x54)),
    (VENDOR, RGBColor(0x66, 0x66, 0x66)),
];

fn legend_name(label: &str) -> String {
    match label {
        KILN => "kiln (tensor program)".to_owned(),
        IREE_CPU => "IREE llvm-cpu (of the host's limit)".to_owned(),
        other => other.to_owned(),
    }
}

/// Writes the chart of `report` to `path` (SVG).
pub fn write_svg(report: &Report, path: &Path) -> Result<()> {
    let data = report.fractions();
    let n = data.len().max(1);
    let max = data
        .iter()
        .flat_map(|(_, v)| v.iter().filter_map(|(_, f)| f.ok()))
        .fold(1.0f64, f64::max);
    // Headroom above the tallest bar for the legend (upper right); bars
    // taller than the axis (a limit measured low on a loaded machine) are
    // cut at `clip` and labelled with their value.
    let ymax = (max * 1.45).clamp(1.5, 2.0);
    let clip = ymax * 0.7;
    let err = |e: &dyn std::fmt::Display| anyhow!("chart {}: {e}", path.display());

    let root = SVGBackend::new(path, (1100, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let caption = format!(
        "Throughput as a fraction of the limit measured in the same run ({})",
        report.device
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..ymax)
        .map_err(|e| err(&e))?;
    let names: Vec<String> = data.iter().map(|(s, _)| s.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_desc("fraction of the measured limit")
        .y_label_formatter(&|y| format!("{y:.1}"))
        .draw()
        .map_err(|e| err(&e))?;

    // The limit itself.
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(-0.5, 1.0), (n as f64 - 0.5, 1.0)],
            BLACK.stroke_width(1),
        )))
        .map_err(|e| err(&e))?;

    let slots = SERIES.len() as f64;
    let width = 0.9 / slots;
    for (s, (label, color)) in SERIES.iter().enumerate() {
        let mut bars = Vec::new();
        let mut texts = Vec::new();
        let mut present = false;
        for (i, (_, values)) in data.iter().enumerate() {
            let Some((_, value)) = values.iter().find(|(l, _)| l == label) else {
                continue;
            };
            present = true;
            let x0 = i as f64 - 0.45 + s as f64 * width;
            match value {
                Ok(f) => {
                    let (top, text) = if *f > clip {
                        (clip, format!("{f:.2} (cut)"))
                    } else {
                        (*f, format!("{f:.2}"))
                    };
                    bars.push(Rectangle::new(
                        [(x0, 0.0), (x0 + width * 0.92, top)],
                        color.filled(),
                    ));
                    texts.push(Text::new(
                        text,
                        (x0, top + ymax * 0.01),
                        ("sans-serif", 10).into_font().color(&BLACK),
                    ));
                }
                Err(why) => texts.push(Text::new(
                    (*why).to_owned(),
                    (x0, ymax * 0.01),
                    ("sans-serif", 11).into_font().color(color),
                )),
            }
        }
        if !present {
            continue;
        }
        let c = *color;
        chart
            .draw_series(bars)
            .map_err(|e| err(&e))?
            .label(legend_name(label))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
        chart.draw_series(texts).map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 12))
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_taller_than_the_axis_are_cut_and_labelled() {
        let mut report = super::super::report::tests::sample();
        // IREE's CPU row at 4x the host limit (a limit measured low).
        if let Some(l) = report.limits.as_mut() {
            if let Ok(m) = l.host_add.as_mut() {
                m.timing.wall.median *= 8;
            }
        }
        let dir = std::env::temp_dir().join(format!("kiln-chart-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("chart.svg");
        write_svg(&report, &path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
        assert!(svg.contains("6.40 (cut)"), "the CPU bar is cut");
        assert!(svg.contains("0.50"), "kiln's bar is labelled");
        assert!(svg.contains("not yet"), "the missing bar says why");
        assert!(svg.contains("IREE llvm-cpu (of the host"));
    }
}
