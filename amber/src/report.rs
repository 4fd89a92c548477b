//! What running a script gives: pass, fail (where and why) or skip (why),
//! and the timings of `RUN TIMED_EXECUTION` commands.

use std::fmt;
use std::time::Duration;

use kiln_vulkan::DispatchTiming;

/// Why a script failed: a parse error (line and column), a failing
/// command or declaration (its line), or a problem with the file itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The script line, when the failure has one.
    pub line: Option<u32>,
    /// The column, for parse errors.
    pub col: Option<u32>,
    /// What failed.
    pub message: String,
}

impl Failure {
    /// A failure at script line `line`.
    pub fn at(line: u32, message: impl Into<String>) -> Self {
        Self {
            line: Some(line),
            col: None,
            message: message.into(),
        }
    }

    /// A failure of the file as a whole (unreadable, no device).
    pub fn file(message: impl Into<String>) -> Self {
        Self {
            line: None,
            col: None,
            message: message.into(),
        }
    }

    /// The failure after `name` (a file name): `name:12:5: message` for a
    /// parse error, `name: line 12: message`, or `name: message`.
    pub fn in_file(&self, name: &str) -> String {
        match (self.line, self.col) {
            (Some(l), Some(c)) => format!("{name}:{l}:{c}: {}", self.message),
            _ => format!("{name}: {self}"),
        }
    }
}

impl fmt::Display for Failure {
    /// `12:5: message`, `line 12: message` or `message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.col) {
            (Some(l), Some(c)) => write!(f, "{l}:{c}: {}", self.message),
            (Some(l), None) => write!(f, "line {l}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// The result of one script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every command ran and every expectation held.
    Pass,
    /// The first failure.
    Fail(Failure),
    /// The script needs what kiln or the device does not offer (the
    /// reason).
    Skip(String),
}

/// One `RUN TIMED_EXECUTION` measurement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedRun {
    /// The `RUN` line.
    pub line: u32,
    /// The pipeline.
    pub pipeline: String,
    /// What the dispatch took.
    pub timing: DispatchTiming,
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

impl fmt::Display for TimedRun {
    /// `line 12: RUN TIMED_EXECUTION p: 0.052 ms on the device (submit
    /// 0.010 ms, wait 0.120 ms)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: RUN TIMED_EXECUTION {}: ",
            self.line, self.pipeline
        )?;
        match self.timing.device {
            Some(d) => write!(f, "{} on the device", ms(d))?,
            None => f.write_str("no device timestamps on this queue")?,
        }
        write!(
            f,
            " (submit {}, wait {})",
            ms(self.timing.submit),
            ms(self.timing.wait)
        )
    }
}

/// A script's outcome and timings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Pass, fail or skip.
    pub outcome: Outcome,
    /// The timed runs, in the order they ran (also for a failed script).
    pub timings: Vec<TimedRun>,
}

impl Report {
    /// `PASS name`, `FAIL name: why` or `SKIP name: why`, then one
    /// indented line per timed run.
    pub fn render(&self, name: &str) -> String {
        let mut out = match &self.outcome {
            Outcome::Pass => format!("PASS {name}"),
            Outcome::Fail(f) => format!("FAIL {}", f.in_file(name)),
            Outcome::Skip(why) => format!("SKIP {name}: {why}"),
        };
        for t in &self.timings {
            out.push_str(&format!("\n  {t}"));
        }
        out
    }
}

/// Counts of outcomes over many scripts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Scripts that passed.
    pub passed: usize,
    /// Scripts that failed.
    pub failed: usize,
    /// Scripts that were skipped.
    pub skipped: usize,
}

impl Summary {
    /// Counts `outcome`.
    pub fn add(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Pass => self.passed += 1,
            Outcome::Fail(_) => self.failed += 1,
            Outcome::Skip(_) => self.skipped += 1,
        }
    }
}

impl fmt::Display for Summary {
    /// `3 passed, 1 failed, 2 skipped`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )
    }
}
