import numpy as np, os
os.makedirs('/tmp/in', exist_ok=True)
rng = np.random.default_rng(0)
for n in (512, 1024, 4096):
    for k in 'ab':
        x = rng.standard_normal((n, n), dtype=np.float32)
        np.save('/tmp/in/%s%d.npy' % (k, n), x)
        np.save('/tmp/in/%s%d_f16.npy' % (k, n), x.astype(np.float16))
