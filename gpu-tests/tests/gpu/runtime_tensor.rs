//! kiln-runtime tensors on the device, validation on: every element type
//! round-trips, zeros and full, views without copies, `read()` awaited with
//! pollster — with tensors in unified memory and through staging.

use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::half::{bf16, f16};
use kiln_runtime::{CacheLocation, DType, Device, DeviceOptions, Element, Error, Tensor};

use crate::runtime_support::test_device;

fn devices() -> Vec<Device> {
    [true, false]
        .into_iter()
        .map(|unified| {
            test_device(DeviceOptions {
                cache: CacheLocation::Disabled,
                unified_memory: unified,
                ..DeviceOptions::default()
            })
        })
        .collect()
}

fn round_trip<T: Element + PartialEq + std::fmt::Debug>(device: &Device, data: &[T], fill: T) {
    let t = Tensor::from_slice(device, data, &[data.len()]).unwrap();
    assert_eq!(t.dtype(), T::DTYPE);
    assert_eq!(t.to_vec::<T>().unwrap(), data, "{}", T::DTYPE);
    let f = Tensor::full(device, fill, &[3, 5]).unwrap();
    assert_eq!(
        f.to_vec::<T>().unwrap(),
        vec![fill; 15],
        "full {}",
        T::DTYPE
    );
    let z = Tensor::zeros(device, T::DTYPE, &[7]).unwrap();
    assert_eq!(
        z.to_vec::<u8>().err().map(|e| e.to_string()),
        (T::DTYPE != DType::U8)
            .then(|| format!("read: the tensor holds {}, the host data is ui8", T::DTYPE))
    );
    // Overwrite through a stream, then fill a stream-enqueued tensor.
    let stream = device.stream();
    let rev: Vec<T> = data.iter().rev().copied().collect();
    stream.upload(&t, &rev).unwrap();
    assert_eq!(t.to_vec::<T>().unwrap(), rev, "upload {}", T::DTYPE);
    stream.fill(&t, fill).unwrap();
    assert_eq!(
        pollster::block_on(t.read::<T>()).unwrap(),
        vec![fill; data.len()],
        "fill {}",
        T::DTYPE
    );
}

#[test]
fn every_element_type_round_trips() {
    for device in devices() {
        round_trip(&device, &[1.5f32, -2.0, 3.25, 0.0, 7.0], 9.5);
        round_trip(
            &device,
            &[f16::from_f32(0.5), f16::from_f32(-3.0), f16::MAX],
            f16::ONE,
        );
        round_trip(
            &device,
            &[bf16::from_f32(1.0), bf16::from_f32(-0.25), bf16::MIN],
            bf16::NEG_ONE,
        );
        round_trip(&device, &[-128i8, 0, 5, 127, -1], -7);
        round_trip(&device, &[i16::MIN, -2, 0, 300, i16::MAX], 1234);
        round_trip(&device, &[i32::MIN, -1, 0, 1 << 20, i32::MAX], -99);
        round_trip(
            &device,
            &[i64::MIN, -5, 0, 1 << 40, i64::MAX],
            0x0102_0304_0506_0708,
        );
        round_trip(&device, &[0u8, 1, 200, 255, 17], 0xA5);
        round_trip(&device, &[0u32, 1, 0xFFFF_FFFF, 12345, 7], 0xDEAD_BEEF);
        round_trip(&device, &[true, false, false, true, true], true);
        let zeros = Tensor::zeros(&device, DType::I64, &[4]).unwrap();
        assert_eq!(zeros.to_vec::<i64>().unwrap(), vec![0; 4]);
        assert_no_validation_messages(device.context());
    }
}

#[test]
fn views_share_the_buffer_and_move_no_data() {
    for device in devices() {
        // t[i][j][k] = 100 i + 10 j + k, shape [2, 3, 4].
        let data: Vec<i32> = (0..24)
            .map(|n| 100 * (n / 12) + 10 * ((n / 4) % 3) + n % 4)
            .collect();
        let t = Tensor::from_slice(&device, &data, &[2, 3, 4]).unwrap();
        let before = device.counters();
        let tt = t.transpose(1, 2).unwrap();
        let n = t.narrow(2, 1, 2).unwrap();
        let r = t.reshape(&[6, 4]).unwrap();
        let p = t.permute(&[2, 0, 1]).unwrap();
        let row = t.narrow(0, 1, 1).unwrap().reshape(&[3, 4]).unwrap();
        for v in [&tt, &n, &r, &p, &row] {
            assert!(v.shares_buffer(&t));
            assert_eq!(v.buffer_location(), t.buffer_location());
        }
        let after = device.counters();
        assert_eq!(
            (after.transfers, after.dispatches, after.submits),
            (before.transfers, before.dispatches, before.submits),
            "views record no work"
        );
        assert_eq!(
            (tt.shape(), tt.strides()),
            (&[2, 4, 3][..], &[12, 1, 4][..])
        );
        // Expected values straight from the definition of each view.
        let at = |i: usize, j: usize, k: usize| (100 * i + 10 * j + k) as i32;
        let want_tt: Vec<i32> = (0..2)
            .flat_map(|i| (0..4).flat_map(move |k| (0..3).map(move |j| at(i, j, k))))
            .collect();
        assert_eq!(tt.to_vec::<i32>().unwrap(), want_tt);
        let want_n: Vec<i32> = (0..2)
            .flat_map(|i| (0..3).flat_map(move |j| (1..3).map(move |k| at(i, j, k))))
            .collect();
        assert_eq!(n.to_vec::<i32>().unwrap(), want_n);
        assert_eq!(r.to_vec::<i32>().unwrap(), data);
        let want_p: Vec<i32> = (0..4)
            .flat_map(|k| (0..2).flat_map(move |i| (0..3).map(move |j| at(i, j, k))))
            .collect();
        assert_eq!(p.to_vec::<i32>().unwrap(), want_p);
        assert_eq!(row.to_vec::<i32>().unwrap(), data[12..].to_vec());
        assert_eq!(row.offset(), 12);
        // A non-contiguous view cannot be reshaped without a copy...
        let err = tt.reshape(&[24]).unwrap_err();
        assert!(matches!(err, Error::NotContiguous { .. }), "{err}");
        // ...which contiguous() makes on the GPU.
        let c = tt.contiguous().unwrap();
        assert!(!c.shares_buffer(&t));
        assert_eq!(c.reshape(&[24]).unwrap().to_vec::<i32>().unwrap(), want_tt);
        assert!(tt
            .transpose(1, 2)
            .unwrap()
            .contiguous()
            .unwrap()
            .shares_buffer(&t));
        assert_no_validation_messages(device.context());
    }
}

#[test]
fn read_futures_are_awaited_with_pollster() {
    for device in devices() {
        let a = Tensor::from_slice(&device, &[1u32, 2, 3, 4], &[2, 2]).unwrap();
        let b = Tensor::from_slice(&device, &[5.0f32; 300], &[300]).unwrap();
        let fa = a.transpose(0, 1).unwrap().read::<u32>();
        let fb = b.narrow(0, 100, 3).unwrap().read::<f32>();
        // Both submitted before either is awaited.
        assert_eq!(pollster::block_on(fb).unwrap(), vec![5.0; 3]);
        assert_eq!(pollster::block_on(fa).unwrap(), vec![1, 3, 2, 4]);
        let mut host = [0u32; 4];
        a.transpose(0, 1).unwrap().read_into(&mut host).unwrap();
        assert_eq!(host, [1, 3, 2, 4]);
        a.read_into(&mut host).unwrap();
        assert_eq!(host, [1, 2, 3, 4]);
        let mut flags = [false; 3];
        Tensor::from_slice(&device, &[true, false, true], &[3])
            .unwrap()
            .read_into(&mut flags)
            .unwrap();
        assert_eq!(flags, [true, false, true]);
        assert!(a.read_into(&mut [0u32; 3]).is_err());
        let err = pollster::block_on(a.read::<f32>()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "read: the tensor holds ui32, the host data is f32"
        );
        assert_no_validation_messages(device.context());
    }
}

#[test]
fn bytes_in_and_out_whatever_the_element_type() {
    for device in devices() {
        // from_fill writes the stored bytes (in place on unified memory).
        let want: Vec<f32> = (0..24).map(|i| i as f32 - 3.5).collect();
        let bytes: Vec<u8> = want.iter().flat_map(|x| x.to_le_bytes()).collect();
        let t = Tensor::from_fill(&device, DType::F32, &[4, 6], |dst| {
            dst.copy_from_slice(&bytes)
        })
        .unwrap();
        assert_eq!(t.to_vec::<f32>().unwrap(), want);
        // read_bytes_into / read_bytes_with: the same bytes back, of a
        // view too (an offset narrow, a strided transpose).
        let mut out = vec![0u8; 96];
        t.read_bytes_into(&mut out).unwrap();
        assert_eq!(out, bytes);
        let row = t.narrow(0, 2, 1).unwrap();
        let got = row.read_bytes_with(|b| b.to_vec()).unwrap();
        assert_eq!(got, bytes[48..72]);
        let tt = t.transpose(0, 1).unwrap();
        let got = tt.read_bytes_with(|b| b.to_vec()).unwrap();
        let want_tt: Vec<u8> = (0..6)
            .flat_map(|c| (0..4).map(move |r| r * 6 + c))
            .flat_map(|i| want[i].to_le_bytes())
            .collect();
        assert_eq!(got, want_tt);
        // After device work writes the tensor: the read waits for it.
        let c = tt.contiguous().unwrap();
        let mut out = vec![0u8; 96];
        c.read_bytes_into(&mut out).unwrap();
        assert_eq!(out, want_tt);
        assert!(t.read_bytes_into(&mut [0u8; 95]).is_err());
        let e =
            Tensor::from_fill(&device, DType::I16, &[0, 3], |dst| assert!(dst.is_empty())).unwrap();
        assert_eq!(e.read_bytes_with(<[u8]>::len).unwrap(), 0);
        assert_no_validation_messages(device.context());
    }
}
