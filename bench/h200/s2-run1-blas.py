# cuBLAS through PyTorch: f32 (TF32 off) and f16 matmuls, timed with CUDA events.
import json, sys, time
import numpy as np, torch
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
dev = torch.device('cuda')
out = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0)}
def bench(name, f, flops, runs=20):
    f(); torch.cuda.synchronize()
    walls, gpus = [], []
    for _ in range(runs):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t = time.perf_counter(); s.record(); r = f(); e.record(); torch.cuda.synchronize()
        walls.append((time.perf_counter() - t) * 1e3); gpus.append(s.elapsed_time(e))
    w, g = float(np.median(walls)), float(np.median(gpus))
    out[name] = {"wall_ms": w, "gpu_ms": g, "tflops_gpu": flops / g / 1e9}
    print(name, out[name], flush=True)
    return r
for n in (512, 1024, 4096):
    a = torch.from_numpy(np.load('/tmp/in/a%d.npy' % n)).to(dev)
    b = torch.from_numpy(np.load('/tmp/in/b%d.npy' % n)).to(dev)
    bench('sgemm_%d' % n, lambda: torch.matmul(a, b), 2 * n ** 3)
    ah, bh = a.half(), b.half()
    bench('hgemm_f16out_%d' % n, lambda: torch.matmul(ah, bh), 2 * n ** 3)
    try:
        r = bench('hgemm_f32out_%d' % n, lambda: torch.mm(ah, bh, out_dtype=torch.float32), 2 * n ** 3)
        ref = ah.double() @ bh.double()
        out['hgemm_f32out_%d' % n]['err'] = float((r.double() - ref).abs().max() / ref.abs().max())
    except Exception as ex:
        out['hgemm_f32out_err'] = str(ex)
json.dump(out, open(sys.argv[1], 'w'), indent=1)
