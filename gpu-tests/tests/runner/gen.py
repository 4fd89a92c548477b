#!/usr/bin/env python3
"""Writes the runner-format test files in this folder with their expected
output as FileCheck `// CHECK:` lines.

Each test is the MLIR text of a Vulkan-runner style program plus a Python
model of what it computes, evaluated with IEEE float32 semantics (every
intermediate rounded through `struct`), then printed the way MLIR's
libmlir_runner_utils prints a memref (`RunnerUtils.h`: MemRefDataPrinter,
floats through std::ostream, i.e. `%g`). The models are independent of kiln:
they re-derive each result from the program's meaning.

Run `python3 gen.py` here to regenerate; `mlir-opt-19 FILE` must accept each.
Math results that GPUs compute to a few ulps are scaled and rounded inside
the kernel, so the expected text does not depend on the device's libm.
"""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def i32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x & 0x80000000 else x


def i8(x):
    x &= 0xFF
    return x - 256 if x & 0x80 else x


def u32(x):
    return x & 0xFFFFFFFF


def fmt(x, kind):
    if kind == 'f':
        if math.isnan(x):
            return 'nan'
        if math.isinf(x):
            return 'inf' if x > 0 else '-inf'
        return '%g' % x
    return str(int(x))


def shape_of(data):
    shape = []
    while isinstance(data, list):
        shape.append(len(data))
        data = data[0]
    return shape


def print_memref(data, kind):
    """The text printMemref* writes for the nested list `data`."""
    shape = shape_of(data)
    rank = len(shape)
    strides = []
    acc = 1
    for d in reversed(shape):
        strides.insert(0, acc)
        acc *= d
    out = []
    out.append('Unranked Memref base@ = 0x0 rank = %d offset = 0 sizes = [%s] strides = [%s] data = \n'
               % (rank, ', '.join(map(str, shape)), ', '.join(map(str, strides))))

    def rec(d, dim):
        if dim == 0:
            out.append(fmt(d, kind))
            return
        n = len(d)
        out.append('[')
        rec(d[0], dim - 1)
        if n <= 1:
            out.append(']')
            return
        out.append(', ')
        if dim > 1:
            out.append('\n')
        for i in range(1, n - 1):
            out.append(' ' * (rank - dim + 1))
            rec(d[i], dim - 1)
            out.append(', ')
            if dim > 1:
                out.append('\n')
        out.append(' ' * (rank - dim + 1))
        rec(d[n - 1], dim - 1)
        out.append(']')

    rec(data, rank)
    out.append('\n')
    return ''.join(out)


def check_lines(prints):
    """CHECK lines for a sequence of (data, kind) prints."""
    lines = []
    for data, kind in prints:
        text = print_memref(data, kind).split('\n')
        header = text[0]
        # base@ varies: match from `rank =` on.
        lines.append('// CHECK: ' + header[header.index('rank ='):].rstrip())
        for row in text[1:]:
            if row.strip():
                lines.append('// CHECK-NEXT: ' + row.rstrip())
    return '\n'.join(lines)


def nest(flat, shape):
    if len(shape) == 1:
        return list(flat)
    step = len(flat) // shape[0]
    return [nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


TESTS = []


def test(name, doc):
    def deco(fn):
        TESTS.append((name, doc, fn))
        return fn
    return deco


ENV10 = ('spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], '
         '[SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>')


def module(body, env=ENV10):
    attrs = 'gpu.container_module' + (',\n  ' + env if env else '')
    return 'module attributes {\n  %s\n} {\n%s\n}\n' % (attrs, body.strip('\n'))


def wg(x, y=1, z=1):
    return ('spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [%d, %d, %d]>' % (x, y, z))


DECL = {
    'fillResource1DFloat': '(%0 : memref<?xf32>, %1 : f32)',
    'fillResource2DFloat': '(%0 : memref<?x?xf32>, %1 : f32)',
    'fillResource3DFloat': '(%0 : memref<?x?x?xf32>, %1 : f32)',
    'fillResource1DInt': '(%0 : memref<?xi32>, %1 : i32)',
    'fillResource2DInt': '(%0 : memref<?x?xi32>, %1 : i32)',
    'fillResource3DInt': '(%0 : memref<?x?x?xi32>, %1 : i32)',
    'fillResource1DInt8': '(%0 : memref<?xi8>, %1 : i8)',
    'fillResource2DInt8': '(%0 : memref<?x?xi8>, %1 : i8)',
    'fillResource3DInt8': '(%0 : memref<?x?x?xi8>, %1 : i8)',
    'fillI32Buffer': '(%0 : memref<?xi32>, %1 : i32)',
    'fillF32Buffer1D': '(%0 : memref<?xf32>, %1 : f32)',
    'fillF32Buffer2D': '(%0 : memref<?x?xf32>, %1 : f32)',
    'fillF32Buffer3D': '(%0 : memref<?x?x?xf32>, %1 : f32)',
    'printMemrefF32': '(%ptr : memref<*xf32>)',
    'printMemrefI32': '(%ptr : memref<*xi32>)',
    'printMemrefI8': '(%ptr : memref<*xi8>)',
}


def decls(*names):
    return '\n'.join('  func.func private @%s%s' % (n, DECL[n]) for n in names)


def vec_lit(vals):
    return '[' + ', '.join(str(v) for v in vals) + ']'


def flit(v):
    """An MLIR float literal for v (exact for the f32 values used here)."""
    r = repr(float(v))
    if 'e' in r and '.' not in r.split('e')[0]:
        r = r.replace('e', '.0e')
    return r


def robust_round(x):
    """roundeven(x) after checking x is not within reach of a tie or of
    the ulp-level differences a GPU's libm may show."""
    frac = abs(x - math.floor(x))
    assert abs(frac - 0.5) > 0.05, x
    return math.copysign(float(round(x)), x)


# ---------------------------------------------------------------- float
@test('addf', '1-D float add over 8 workgroups of 1 thread (MLIR addf.mlir shape)')
def t_addf():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_add(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>, %arg2 : memref<8xf32>)
      kernel attributes { $WG } {
      %0 = gpu.block_id x
      %1 = memref.load %arg0[%0] : memref<8xf32>
      %2 = memref.load %arg1[%0] : memref<8xf32>
      %3 = arith.addf %1, %2 : f32
      memref.store %3, %arg2[%0] : memref<8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %arg0 = memref.alloc() : memref<8xf32>
    %arg1 = memref.alloc() : memref<8xf32>
    %arg2 = memref.alloc() : memref<8xf32>
    %value0 = arith.constant 0.0 : f32
    %value1 = arith.constant 1.1 : f32
    %value2 = arith.constant 2.2 : f32
    %arg3 = memref.cast %arg0 : memref<8xf32> to memref<?xf32>
    %arg4 = memref.cast %arg1 : memref<8xf32> to memref<?xf32>
    %arg5 = memref.cast %arg2 : memref<8xf32> to memref<?xf32>
    call @fillResource1DFloat(%arg3, %value1) : (memref<?xf32>, f32) -> ()
    call @fillResource1DFloat(%arg4, %value2) : (memref<?xf32>, f32) -> ()
    call @fillResource1DFloat(%arg5, %value0) : (memref<?xf32>, f32) -> ()
    %cst1 = arith.constant 1 : index
    %cst8 = arith.constant 8 : index
    gpu.launch_func @kernels::@kernel_add
        blocks in (%cst8, %cst1, %cst1) threads in (%cst1, %cst1, %cst1)
        args(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>, %arg2 : memref<8xf32>)
    %arg6 = memref.cast %arg5 : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%arg6) : (memref<*xf32>) -> ()
    return
  }
'''.replace('$WG', wg(1)) + decls('fillResource1DFloat', 'printMemrefF32')
    out = [f32(f32(1.1) + f32(2.2))] * 8
    return module(body), [(out, 'f')]


@test('subf_3d', '3-D float subtract with a broadcast 2-D operand, 3-D grid')
def t_subf():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_sub(%arg0 : memref<2x3x4xf32>, %arg1 : memref<3x4xf32>, %arg2 : memref<2x3x4xf32>)
      kernel attributes { $WG } {
      %x = gpu.block_id x
      %y = gpu.block_id y
      %z = gpu.block_id z
      %1 = memref.load %arg0[%z, %y, %x] : memref<2x3x4xf32>
      %2 = memref.load %arg1[%y, %x] : memref<3x4xf32>
      %3 = arith.subf %1, %2 : f32
      memref.store %3, %arg2[%z, %y, %x] : memref<2x3x4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %a = memref.alloc() : memref<2x3x4xf32>
    %b = memref.alloc() : memref<3x4xf32>
    %c = memref.alloc() : memref<2x3x4xf32>
    %v0 = arith.constant 0.0 : f32
    %v1 = arith.constant 3.3 : f32
    %a3 = memref.cast %a : memref<2x3x4xf32> to memref<?x?x?xf32>
    %c3 = memref.cast %c : memref<2x3x4xf32> to memref<?x?x?xf32>
    call @fillResource3DFloat(%a3, %v1) : (memref<?x?x?xf32>, f32) -> ()
    call @fillResource3DFloat(%c3, %v0) : (memref<?x?x?xf32>, f32) -> ()
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3i = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %quarter = arith.constant 0.25 : f32
    scf.for %i = %c0 to %c3i step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %k = arith.muli %i, %c4 : index
        %l = arith.addi %k, %j : index
        %li = arith.index_cast %l : index to i32
        %lf = arith.sitofp %li : i32 to f32
        %v = arith.mulf %lf, %quarter : f32
        memref.store %v, %b[%i, %j] : memref<3x4xf32>
      }
    }
    gpu.launch_func @kernels::@kernel_sub
        blocks in (%c4, %c3i, %c2) threads in (%c1, %c1, %c1)
        args(%a : memref<2x3x4xf32>, %b : memref<3x4xf32>, %c : memref<2x3x4xf32>)
    %p = memref.cast %c : memref<2x3x4xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
'''.replace('$WG', wg(1)) + decls('fillResource3DFloat', 'printMemrefF32')
    a = f32(3.3)
    out = [[[f32(a - f32((i * 4 + j) * 0.25)) for j in range(4)] for i in range(3)] for _ in range(2)]
    return module(body), [(out, 'f')]


@test('mulf_2d', '2-D float multiply, one 4x4 workgroup, thread ids')
def t_mulf():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_mul(%arg0 : memref<4x4xf32>, %arg1 : memref<4x4xf32>, %arg2 : memref<4x4xf32>)
      kernel attributes { $WG } {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %1 = memref.load %arg0[%y, %x] : memref<4x4xf32>
      %2 = memref.load %arg1[%y, %x] : memref<4x4xf32>
      %3 = arith.mulf %1, %2 : f32
      memref.store %3, %arg2[%y, %x] : memref<4x4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %a = memref.alloc() : memref<4x4xf32>
    %b = memref.alloc() : memref<4x4xf32>
    %c = memref.alloc() : memref<4x4xf32>
    %v0 = arith.constant 0.0 : f32
    %v1 = arith.constant 1.5 : f32
    %b2 = memref.cast %b : memref<4x4xf32> to memref<?x?xf32>
    %c2 = memref.cast %c : memref<4x4xf32> to memref<?x?xf32>
    call @fillResource2DFloat(%b2, %v1) : (memref<?x?xf32>, f32) -> ()
    call @fillResource2DFloat(%c2, %v0) : (memref<?x?xf32>, f32) -> ()
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %tenth = arith.constant 0.1 : f32
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %k = arith.muli %i, %c4 : index
        %l = arith.addi %k, %j : index
        %li = arith.index_cast %l : index to i32
        %lf = arith.sitofp %li : i32 to f32
        %v = arith.addf %lf, %tenth : f32
        memref.store %v, %a[%i, %j] : memref<4x4xf32>
      }
    }
    gpu.launch_func @kernels::@kernel_mul
        blocks in (%c1, %c1, %c1) threads in (%c4, %c4, %c1)
        args(%a : memref<4x4xf32>, %b : memref<4x4xf32>, %c : memref<4x4xf32>)
    %p = memref.cast %c2 : memref<?x?xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
'''.replace('$WG', wg(4, 4)) + decls('fillResource2DFloat', 'printMemrefF32')
    out = [[f32(f32(f32(i * 4 + j) + f32(0.1)) * 1.5) for j in range(4)] for i in range(4)]
    return module(body), [(out, 'f')]


FA = [1.5, -2.25, 3.0, -0.0, 100.0, 0.1, -7.5, 1e6]
FB = [0.5, 4.0, -3.0, 2.0, 3.0, 0.3, 2.5, 3.0]


@test('float_ops', 'float arith rows: add sub mul div neg max min abs cmp+select')
def t_float_ops():
    rows = [
        ('%r = arith.addf %a, %b : f32', lambda a, b: f32(a + b)),
        ('%r = arith.subf %a, %b : f32', lambda a, b: f32(a - b)),
        ('%r = arith.mulf %a, %b : f32', lambda a, b: f32(a * b)),
        ('%r = arith.divf %a, %b : f32', lambda a, b: f32(a / b)),
        ('%r = arith.negf %a : f32', lambda a, b: -a),
        ('%r = arith.maximumf %a, %b : f32', lambda a, b: max(a, b)),
        ('%r = arith.minimumf %a, %b : f32', lambda a, b: min(a, b)),
        ('%r = math.absf %a : f32', lambda a, b: abs(a)),
        ('%t = arith.cmpf olt, %a, %b : f32\n      %r = arith.select %t, %a, %b : f32', lambda a, b: a if a < b else b),
        ('%t = arith.cmpf oge, %a, %b : f32\n      %r = arith.uitofp %t : i1 to f32', lambda a, b: 1.0 if a >= b else 0.0),
    ]
    n = len(rows)
    stmts = []
    for k, (src, _) in enumerate(rows):
        src = src.replace('%r', '%%r%d' % k).replace('%t', '%%t%d' % k)
        stmts.append('      ' + src)
        stmts.append('      %%c%d = arith.constant %d : index' % (k, k))
        stmts.append('      memref.store %%r%d, %%out[%%c%d, %%x] : memref<%dx8xf32>' % (k, k, n))
    kernel_body = '\n'.join(stmts)
    body = ('''
  gpu.module @kernels {
    gpu.func @kernel_float(%in0 : memref<8xf32>, %in1 : memref<8xf32>, %out : memref<NROWSx8xf32>)
      kernel attributes { $WG } {
      %x = gpu.block_id x
      %a = memref.load %in0[%x] : memref<8xf32>
      %b = memref.load %in1[%x] : memref<8xf32>
KBODY
      gpu.return
    }
  }

  func.func @main() {
    %in0 = memref.alloc() : memref<8xf32>
    %in1 = memref.alloc() : memref<8xf32>
    %out = memref.alloc() : memref<NROWSx8xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %va = arith.constant dense<VA> : vector<8xf32>
    %vb = arith.constant dense<VB> : vector<8xf32>
    vector.store %va, %in0[%c0] : memref<8xf32>, vector<8xf32>
    vector.store %vb, %in1[%c0] : memref<8xf32>, vector<8xf32>
    gpu.launch_func @kernels::@kernel_float
        blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%in0 : memref<8xf32>, %in1 : memref<8xf32>, %out : memref<NROWSx8xf32>)
    %p = memref.cast %out : memref<NROWSx8xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
'''.replace('$WG', wg(1))).replace('KBODY', kernel_body).replace('NROWS', str(n)) \
        .replace('VA', vec_lit(flit(v) for v in FA)).replace('VB', vec_lit(flit(v) for v in FB)) \
        + decls('printMemrefF32')
    fa = [f32(v) for v in FA]
    fb = [f32(v) for v in FB]
    out = [[fn(a, b) for a, b in zip(fa, fb)] for _, fn in rows]
    return module(body), [(out, 'f')]


# ---------------------------------------------------------------- integers
@test('addi_3d', 'i32 add of 1-D, 2-D operands into a 3-D result, 3-D grid')
def t_addi():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_addi(%arg0 : memref<4xi32>, %arg1 : memref<3x4xi32>, %arg2 : memref<2x3x4xi32>)
      kernel attributes { $WG } {
      %x = gpu.block_id x
      %y = gpu.block_id y
      %z = gpu.block_id z
      %0 = memref.load %arg0[%x] : memref<4xi32>
      %1 = memref.load %arg1[%y, %x] : memref<3x4xi32>
      %2 = arith.addi %0, %1 : i32
      %zi = arith.index_cast %z : index to i32
      %3 = arith.addi %2, %zi : i32
      memref.store %3, %arg2[%z, %y, %x] : memref<2x3x4xi32>
      gpu.return
    }
  }

  func.func @main() {
    %a = memref.alloc() : memref<4xi32>
    %b = memref.alloc() : memref<3x4xi32>
    %c = memref.alloc() : memref<2x3x4xi32>
    %v0 = arith.constant 0 : i32
    %v100 = arith.constant 100 : i32
    %b2 = memref.cast %b : memref<3x4xi32> to memref<?x?xi32>
    %c3 = memref.cast %c : memref<2x3x4xi32> to memref<?x?x?xi32>
    call @fillResource2DInt(%b2, %v100) : (memref<?x?xi32>, i32) -> ()
    call @fillResource3DInt(%c3, %v0) : (memref<?x?x?xi32>, i32) -> ()
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3i = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %m = arith.constant -7 : i32
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %v = arith.muli %ii, %m : i32
      memref.store %v, %a[%i] : memref<4xi32>
    }
    %ten = arith.constant 10 : i32
    memref.store %ten, %b[%c1, %c2] : memref<3x4xi32>
    gpu.launch_func @kernels::@kernel_addi
        blocks in (%c4, %c3i, %c2) threads in (%c1, %c1, %c1)
        args(%a : memref<4xi32>, %b : memref<3x4xi32>, %c : memref<2x3x4xi32>)
    %p = memref.cast %c3 : memref<?x?x?xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(1)) + decls('fillResource2DInt', 'fillResource3DInt', 'printMemrefI32')
    a = [-7 * i for i in range(4)]
    b = [[100] * 4 for _ in range(3)]
    b[1][2] = 10
    out = [[[a[x] + b[y][x] + z for x in range(4)] for y in range(3)] for z in range(2)]
    return module(body), [(out, 'i')]


IA = [7, -7, 100, -100, 2147483647, -2147483647, 13, 0]
IB = [2, 2, -3, -3, 16, 7, 13, 5]
IC = [1, 2, 3, 4, 5, 31, 0, 7]


def sdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


@test('int_ops', 'i32 arith rows: add sub mul div rem (signed/unsigned) bitwise min/max shifts')
def t_int_ops():
    rows = [
        ('%r = arith.addi %a, %b : i32', lambda a, b, c: i32(a + b)),
        ('%r = arith.subi %a, %b : i32', lambda a, b, c: i32(a - b)),
        ('%r = arith.muli %a, %b : i32', lambda a, b, c: i32(a * b)),
        ('%r = arith.divsi %a, %b : i32', lambda a, b, c: i32(sdiv(a, b))),
        ('%r = arith.remsi %a, %b : i32', lambda a, b, c: i32(a - sdiv(a, b) * b)),
        ('%r = arith.divui %a, %b : i32', lambda a, b, c: i32(u32(a) // u32(b))),
        ('%r = arith.remui %a, %b : i32', lambda a, b, c: i32(u32(a) % u32(b))),
        ('%r = arith.andi %a, %b : i32', lambda a, b, c: i32(a & b)),
        ('%r = arith.ori %a, %b : i32', lambda a, b, c: i32(a | b)),
        ('%r = arith.xori %a, %b : i32', lambda a, b, c: i32(a ^ b)),
        ('%r = arith.minsi %a, %b : i32', lambda a, b, c: min(a, b)),
        ('%r = arith.maxsi %a, %b : i32', lambda a, b, c: max(a, b)),
        ('%r = arith.minui %a, %b : i32', lambda a, b, c: i32(min(u32(a), u32(b)))),
        ('%r = arith.maxui %a, %b : i32', lambda a, b, c: i32(max(u32(a), u32(b)))),
        ('%r = arith.shli %a, %c : i32', lambda a, b, c: i32(a << c)),
        ('%r = arith.shrsi %a, %c : i32', lambda a, b, c: i32(a >> c)),
        ('%r = arith.shrui %a, %c : i32', lambda a, b, c: i32(u32(a) >> c)),
        ('%t = arith.cmpi slt, %a, %b : i32\n      %r = arith.extui %t : i1 to i32', lambda a, b, c: int(a < b)),
        ('%t = arith.cmpi ult, %a, %b : i32\n      %r = arith.extsi %t : i1 to i32', lambda a, b, c: -int(u32(a) < u32(b))),
    ]
    n = len(rows)
    stmts = []
    for k, (src, _) in enumerate(rows):
        src = src.replace('%r', '%%r%d' % k).replace('%t', '%%t%d' % k)
        stmts.append('      ' + src)
        stmts.append('      %%k%d = arith.constant %d : index' % (k, k))
        stmts.append('      memref.store %%r%d, %%out[%%k%d, %%x] : memref<%dx8xi32>' % (k, k, n))
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_int(%in0 : memref<8xi32>, %in1 : memref<8xi32>, %in2 : memref<8xi32>, %out : memref<NROWSx8xi32>)
      kernel attributes { $WG } {
      %x = gpu.block_id x
      %a = memref.load %in0[%x] : memref<8xi32>
      %b = memref.load %in1[%x] : memref<8xi32>
      %c = memref.load %in2[%x] : memref<8xi32>
KBODY
      gpu.return
    }
  }

  func.func @main() {
    %in0 = memref.alloc() : memref<8xi32>
    %in1 = memref.alloc() : memref<8xi32>
    %in2 = memref.alloc() : memref<8xi32>
    %out = memref.alloc() : memref<NROWSx8xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %va = arith.constant dense<VA> : vector<8xi32>
    %vb = arith.constant dense<VB> : vector<8xi32>
    %vc = arith.constant dense<VC> : vector<8xi32>
    vector.store %va, %in0[%c0] : memref<8xi32>, vector<8xi32>
    vector.store %vb, %in1[%c0] : memref<8xi32>, vector<8xi32>
    vector.store %vc, %in2[%c0] : memref<8xi32>, vector<8xi32>
    gpu.launch_func @kernels::@kernel_int
        blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%in0 : memref<8xi32>, %in1 : memref<8xi32>, %in2 : memref<8xi32>, %out : memref<NROWSx8xi32>)
    %p = memref.cast %out : memref<NROWSx8xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(1)).replace('KBODY', '\n'.join(stmts)).replace('NROWS', str(n)) \
        .replace('VA', vec_lit(IA)).replace('VB', vec_lit(IB)).replace('VC', vec_lit(IC)) \
        + decls('printMemrefI32')
    out = [[fn(a, b, c) for a, b, c in zip(IA, IB, IC)] for _, fn in rows]
    return module(body), [(out, 'i')]


@test('int_divfloor', 'arith.ceildivsi / floordivsi / ceildivui (kiln expands them; MLIR needs arith-expand)')
def t_int_divfloor():
    rows = [
        ('ceildivsi', lambda a, b: -((-a) // b) if b > 0 else -((-a) // b)),
        ('floordivsi', lambda a, b: a // b),
        ('ceildivui', lambda a, b: i32(-(-u32(a) // u32(b)))),
    ]
    A = [7, -7, 7, -7, 9, -9, 0, 100]
    B = [2, 2, -2, -2, 3, 3, 5, -7]
    stmts = []
    for k, (op, _) in enumerate(rows):
        stmts.append('      %%r%d = arith.%s %%a, %%b : i32' % (k, op))
        stmts.append('      %%k%d = arith.constant %d : index' % (k, k))
        stmts.append('      memref.store %%r%d, %%out[%%k%d, %%x] : memref<3x8xi32>' % (k, k))
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_div(%in0 : memref<8xi32>, %in1 : memref<8xi32>, %out : memref<3x8xi32>)
      kernel attributes { $WG } {
      %x = gpu.thread_id x
      %a = memref.load %in0[%x] : memref<8xi32>
      %b = memref.load %in1[%x] : memref<8xi32>
KBODY
      gpu.return
    }
  }

  func.func @main() {
    %in0 = memref.alloc() : memref<8xi32>
    %in1 = memref.alloc() : memref<8xi32>
    %out = memref.alloc() : memref<3x8xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %va = arith.constant dense<VA> : vector<8xi32>
    %vb = arith.constant dense<VB> : vector<8xi32>
    vector.store %va, %in0[%c0] : memref<8xi32>, vector<8xi32>
    vector.store %vb, %in1[%c0] : memref<8xi32>, vector<8xi32>
    gpu.launch_func @kernels::@kernel_div
        blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%in0 : memref<8xi32>, %in1 : memref<8xi32>, %out : memref<3x8xi32>)
    %p = memref.cast %out : memref<3x8xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(8)).replace('KBODY', '\n'.join(stmts)) \
        .replace('VA', vec_lit(A)).replace('VB', vec_lit(B)) + decls('printMemrefI32')
    out = [
        [-((-a) // b) for a, b in zip(A, B)],
        [a // b for a, b in zip(A, B)],
        [i32(-(-u32(a) // u32(b))) for a, b in zip(A, B)],
    ]
    return module(body), [(out, 'i')]


ENV_I8_EMUL = ('spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], '
               '[SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage]>, #spirv.resource_limits<>>')
ENV_I8 = ('spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader, Int8, StorageBuffer8BitAccess], '
          '[SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage]>, #spirv.resource_limits<>>')


@test('addi8', 'i8 add with wrap-around, 2-D grid, result widened to i32 (MLIR addi8.mlir env: i8 emulated)')
def t_addi8():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_addi(%arg0 : memref<4xi8>, %arg1 : memref<4x4xi8>, %arg2 : memref<4x4xi32>)
      kernel attributes { $WG } {
      %x = gpu.block_id x
      %y = gpu.block_id y
      %0 = memref.load %arg0[%x] : memref<4xi8>
      %1 = memref.load %arg1[%y, %x] : memref<4x4xi8>
      %2 = arith.addi %0, %1 : i8
      %3 = arith.extsi %2 : i8 to i32
      memref.store %3, %arg2[%y, %x] : memref<4x4xi32>
      gpu.return
    }
  }

  func.func @main() {
    %arg0 = memref.alloc() : memref<4xi8>
    %arg1 = memref.alloc() : memref<4x4xi8>
    %arg2 = memref.alloc() : memref<4x4xi32>
    %value0 = arith.constant 0 : i32
    %value1 = arith.constant 100 : i8
    %arg3 = memref.cast %arg0 : memref<4xi8> to memref<?xi8>
    %arg5 = memref.cast %arg2 : memref<4x4xi32> to memref<?x?xi32>
    call @fillResource1DInt8(%arg3, %value1) : (memref<?xi8>, i8) -> ()
    call @fillResource2DInt(%arg5, %value0) : (memref<?x?xi32>, i32) -> ()
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %ten = arith.constant 10 : i32
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %k = arith.muli %i, %c4 : index
        %l = arith.addi %k, %j : index
        %li = arith.index_cast %l : index to i32
        %v = arith.muli %li, %ten : i32
        %v8 = arith.trunci %v : i32 to i8
        memref.store %v8, %arg1[%i, %j] : memref<4x4xi8>
      }
    }
    gpu.launch_func @kernels::@kernel_addi
        blocks in (%c4, %c4, %c1) threads in (%c1, %c1, %c1)
        args(%arg0 : memref<4xi8>, %arg1 : memref<4x4xi8>, %arg2 : memref<4x4xi32>)
    %arg6 = memref.cast %arg5 : memref<?x?xi32> to memref<*xi32>
    call @printMemrefI32(%arg6) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(1)) + decls('fillResource1DInt8', 'fillResource2DInt', 'printMemrefI32')
    out = [[i8(100 + i8((i * 4 + j) * 10)) for j in range(4)] for i in range(4)]
    return module(body, ENV_I8_EMUL), [(out, 'i')]


@test('muli8', 'native i8 multiply/subtract into i8 buffers printed with printMemrefI8 (Int8 + 8-bit storage env)')
def t_muli8():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_muli8(%arg0 : memref<8xi8>, %arg1 : memref<8xi8>, %arg2 : memref<2x8xi8>)
      kernel attributes { $WG } {
      %x = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %0 = memref.load %arg0[%x] : memref<8xi8>
      %1 = memref.load %arg1[%x] : memref<8xi8>
      %2 = arith.muli %0, %1 : i8
      %3 = arith.subi %0, %1 : i8
      memref.store %2, %arg2[%c0, %x] : memref<2x8xi8>
      memref.store %3, %arg2[%c1, %x] : memref<2x8xi8>
      gpu.return
    }
  }

  func.func @main() {
    %a = memref.alloc() : memref<8xi8>
    %b = memref.alloc() : memref<8xi8>
    %out = memref.alloc() : memref<2x8xi8>
    %z = arith.constant 0 : i8
    %three = arith.constant 3 : i8
    %b1 = memref.cast %b : memref<8xi8> to memref<?xi8>
    %o2 = memref.cast %out : memref<2x8xi8> to memref<?x?xi8>
    call @fillResource1DInt8(%b1, %three) : (memref<?xi8>, i8) -> ()
    call @fillResource2DInt8(%o2, %z) : (memref<?x?xi8>, i8) -> ()
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %k = arith.constant 37 : i32
    %off = arith.constant -100 : i32
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %v = arith.muli %ii, %k : i32
      %w = arith.addi %v, %off : i32
      %w8 = arith.trunci %w : i32 to i8
      memref.store %w8, %a[%i] : memref<8xi8>
    }
    gpu.launch_func @kernels::@kernel_muli8
        blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%a : memref<8xi8>, %b : memref<8xi8>, %out : memref<2x8xi8>)
    %p = memref.cast %out : memref<2x8xi8> to memref<*xi8>
    call @printMemrefI8(%p) : (memref<*xi8>) -> ()
    return
  }
'''.replace('$WG', wg(8)) + decls('fillResource1DInt8', 'fillResource2DInt8', 'printMemrefI8')
    a = [i8(37 * i - 100) for i in range(8)]
    out = [[i8(v * 3) for v in a], [i8(v - 3) for v in a]]
    return module(body, ENV_I8), [(out, 'i')]


@test('casts', 'int/float conversions: trunci/extsi/extui, sitofp/uitofp/fptosi, bitcast')
def t_casts():
    B = [-5, 3, 1000000, -1000000, 255, 256, -129, 16777217]
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_casts(%in : memref<8xi32>, %oi : memref<4x8xi32>, %of : memref<3x8xf32>)
      kernel attributes { $WG } {
      %x = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %half = arith.constant 0.5 : f32
      %b = memref.load %in[%x] : memref<8xi32>
      %t8 = arith.trunci %b : i32 to i8
      %s = arith.extsi %t8 : i8 to i32
      %u = arith.extui %t8 : i8 to i32
      %f = arith.sitofp %b : i32 to f32
      %fu = arith.uitofp %b : i32 to f32
      %h = arith.mulf %f, %half : f32
      %hi = arith.fptosi %h : f32 to i32
      %bits = arith.bitcast %h : f32 to i32
      %t16 = arith.trunci %b : i32 to i16
      %s16 = arith.extsi %t16 : i16 to i32
      memref.store %s, %oi[%c0, %x] : memref<4x8xi32>
      memref.store %u, %oi[%c1, %x] : memref<4x8xi32>
      memref.store %hi, %oi[%c2, %x] : memref<4x8xi32>
      memref.store %s16, %oi[%c3, %x] : memref<4x8xi32>
      memref.store %f, %of[%c0, %x] : memref<3x8xf32>
      memref.store %fu, %of[%c1, %x] : memref<3x8xf32>
      %bf = arith.sitofp %bits : i32 to f32
      memref.store %bf, %of[%c2, %x] : memref<3x8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %in = memref.alloc() : memref<8xi32>
    %oi = memref.alloc() : memref<4x8xi32>
    %of = memref.alloc() : memref<3x8xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %vb = arith.constant dense<VB> : vector<8xi32>
    vector.store %vb, %in[%c0] : memref<8xi32>, vector<8xi32>
    gpu.launch_func @kernels::@kernel_casts
        blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%in : memref<8xi32>, %oi : memref<4x8xi32>, %of : memref<3x8xf32>)
    %pi = memref.cast %oi : memref<4x8xi32> to memref<*xi32>
    %pf = memref.cast %of : memref<3x8xf32> to memref<*xf32>
    call @printMemrefI32(%pi) : (memref<*xi32>) -> ()
    call @printMemrefF32(%pf) : (memref<*xf32>) -> ()
    return
  }
'''.replace('$WG', wg(8)).replace('VB', vec_lit(B)) + decls('printMemrefI32', 'printMemrefF32')
    env = ('spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader, Int8, Int16], '
           '[SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>')

    def bits(x):
        return struct.unpack('<i', struct.pack('<f', x))[0]
    h = [f32(f32(b) * 0.5) for b in B]
    oi = [
        [i8(b) for b in B],
        [b & 0xFF for b in B],
        [int(v) for v in h],
        [((b & 0xFFFF) ^ 0x8000) - 0x8000 for b in B],
    ]
    of = [
        [f32(b) for b in B],
        [f32(u32(b)) for b in B],
        [f32(bits(v)) for v in h],
    ]
    return module(body, env), [(oi, 'i'), (of, 'f')]


# ---------------------------------------------------------------- grids
@test('grid_2d', '2-D grid of 2-D workgroups: block_id * block_dim + thread_id')
def t_grid_2d():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_ids(%out : memref<6x8xi32>)
      kernel attributes { $WG } {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %ox = arith.muli %bx, %dx : index
      %gx = arith.addi %ox, %tx : index
      %oy = arith.muli %by, %dy : index
      %gy = arith.addi %oy, %ty : index
      %c10 = arith.constant 10 : index
      %v0 = arith.muli %gx, %c10 : index
      %v1 = arith.addi %v0, %gy : index
      %v = arith.index_cast %v1 : index to i32
      memref.store %v, %out[%gy, %gx] : memref<6x8xi32>
      gpu.return
    }
  }

  func.func @main() {
    %out = memref.alloc() : memref<6x8xi32>
    %m1 = arith.constant -1 : i32
    %o2 = memref.cast %out : memref<6x8xi32> to memref<?x?xi32>
    call @fillResource2DInt(%o2, %m1) : (memref<?x?xi32>, i32) -> ()
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@kernel_ids
        blocks in (%c2, %c3, %c1) threads in (%c4, %c2, %c1)
        args(%out : memref<6x8xi32>)
    %p = memref.cast %o2 : memref<?x?xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(4, 2)) + decls('fillResource2DInt', 'printMemrefI32')
    out = [[x * 10 + y for x in range(8)] for y in range(6)]
    return module(body), [(out, 'i')]


@test('grid_3d', '3-D grid of 3-D workgroups via gpu.global_id, plus gpu.grid_dim')
def t_grid_3d():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_ids(%out : memref<4x4x4xi32>, %dims : memref<3xi32>)
      kernel attributes { $WG } {
      %gx = gpu.global_id x
      %gy = gpu.global_id y
      %gz = gpu.global_id z
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %a = arith.muli %gz, %c100 : index
      %b = arith.muli %gy, %c10 : index
      %s0 = arith.addi %a, %b : index
      %s1 = arith.addi %s0, %gx : index
      %v = arith.index_cast %s1 : index to i32
      memref.store %v, %out[%gz, %gy, %gx] : memref<4x4x4xi32>
      %nx = gpu.grid_dim x
      %ny = gpu.grid_dim y
      %nz = gpu.grid_dim z
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %nxi = arith.index_cast %nx : index to i32
      %nyi = arith.index_cast %ny : index to i32
      %nzi = arith.index_cast %nz : index to i32
      memref.store %nxi, %dims[%c0] : memref<3xi32>
      memref.store %nyi, %dims[%c1] : memref<3xi32>
      memref.store %nzi, %dims[%c2] : memref<3xi32>
      gpu.return
    }
  }

  func.func @main() {
    %out = memref.alloc() : memref<4x4x4xi32>
    %dims = memref.alloc() : memref<3xi32>
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch_func @kernels::@kernel_ids
        blocks in (%c2, %c2, %c2) threads in (%c2, %c2, %c2)
        args(%out : memref<4x4x4xi32>, %dims : memref<3xi32>)
    %p = memref.cast %out : memref<4x4x4xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    %q = memref.cast %dims : memref<3xi32> to memref<*xi32>
    call @printMemrefI32(%q) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(2, 2, 2)) + decls('printMemrefI32')
    out = [[[z * 100 + y * 10 + x for x in range(4)] for y in range(4)] for z in range(4)]
    return module(body), [(out, 'i'), ([2, 2, 2], 'i')]


@test('threads_3d', 'one 4x3x2 workgroup writing a float function of its 3-D thread id')
def t_threads_3d():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_t(%out : memref<2x3x4xf32>)
      kernel attributes { $WG } {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %xi = arith.index_cast %tx : index to i32
      %yi = arith.index_cast %ty : index to i32
      %zi = arith.index_cast %tz : index to i32
      %xf = arith.sitofp %xi : i32 to f32
      %yf = arith.sitofp %yi : i32 to f32
      %zf = arith.sitofp %zi : i32 to f32
      %k1 = arith.constant 0.5 : f32
      %k2 = arith.constant 0.25 : f32
      %a = arith.mulf %yf, %k1 : f32
      %b = arith.mulf %zf, %k2 : f32
      %s = arith.addf %xf, %a : f32
      %t = arith.subf %s, %b : f32
      memref.store %t, %out[%tz, %ty, %tx] : memref<2x3x4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %out = memref.alloc() : memref<2x3x4xf32>
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@kernel_t
        blocks in (%c1, %c1, %c1) threads in (%c4, %c3, %c2)
        args(%out : memref<2x3x4xf32>)
    %p = memref.cast %out : memref<2x3x4xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
'''.replace('$WG', wg(4, 3, 2)) + decls('printMemrefF32')
    out = [[[x + y * 0.5 - z * 0.25 for x in range(4)] for y in range(3)] for z in range(2)]
    return module(body), [(out, 'f')]


# ---------------------------------------------------------------- control flow
@test('scf_if', 'scf.if with a result (MLIR addf_if.mlir idea): add or subtract by lane')
def t_scf_if():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_if(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>, %arg2 : memref<8xf32>)
      kernel attributes { $WG } {
      %x = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %a = memref.load %arg0[%x] : memref<8xf32>
      %b = memref.load %arg1[%x] : memref<8xf32>
      %lt = arith.cmpi ult, %x, %c4 : index
      %r = scf.if %lt -> (f32) {
        %s = arith.addf %a, %b : f32
        scf.yield %s : f32
      } else {
        %d = arith.subf %a, %b : f32
        scf.yield %d : f32
      }
      memref.store %r, %arg2[%x] : memref<8xf32>
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %x, %c0 : index
      scf.if %first {
        %m = arith.constant -1.0 : f32
        memref.store %m, %arg2[%x] : memref<8xf32>
      }
      gpu.return
    }
  }

  func.func @main() {
    %a = memref.alloc() : memref<8xf32>
    %b = memref.alloc() : memref<8xf32>
    %c = memref.alloc() : memref<8xf32>
    %v = arith.constant 10.0 : f32
    %a1 = memref.cast %a : memref<8xf32> to memref<?xf32>
    call @fillResource1DFloat(%a1, %v) : (memref<?xf32>, f32) -> ()
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %q = arith.constant 0.25 : f32
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %w = arith.mulf %f, %q : f32
      memref.store %w, %b[%i] : memref<8xf32>
    }
    gpu.launch_func @kernels::@kernel_if
        blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%a : memref<8xf32>, %b : memref<8xf32>, %c : memref<8xf32>)
    %p = memref.cast %c : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
'''.replace('$WG', wg(8)) + decls('fillResource1DFloat', 'printMemrefF32')
    out = [10 + i * 0.25 if i < 4 else 10 - i * 0.25 for i in range(8)]
    out[0] = -1.0
    return module(body), [(out, 'f')]


@test('scf_for_iter', 'scf.for with two iter_args: row sums and row maxima')
def t_scf_for():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_rows(%in : memref<4x6xf32>, %sums : memref<4xf32>, %maxs : memref<4xf32>)
      kernel attributes { $WG } {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c6 = arith.constant 6 : index
      %zero = arith.constant 0.0 : f32
      %lowest = arith.constant -1.0e+30 : f32
      %r:2 = scf.for %j = %c0 to %c6 step %c1 iter_args(%s = %zero, %m = %lowest) -> (f32, f32) {
        %v = memref.load %in[%i, %j] : memref<4x6xf32>
        %s2 = arith.addf %s, %v : f32
        %m2 = arith.maximumf %m, %v : f32
        scf.yield %s2, %m2 : f32, f32
      }
      memref.store %r#0, %sums[%i] : memref<4xf32>
      memref.store %r#1, %maxs[%i] : memref<4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %in = memref.alloc() : memref<4x6xf32>
    %sums = memref.alloc() : memref<4xf32>
    %maxs = memref.alloc() : memref<4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : i32
    %k = arith.constant 0.5 : f32
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c6 step %c1 {
        %a = arith.muli %i, %c6 : index
        %l = arith.addi %a, %j : index
        %li = arith.index_cast %l : index to i32
        %m = arith.remsi %li, %c7 : i32
        %f = arith.sitofp %m : i32 to f32
        %v = arith.mulf %f, %k : f32
        memref.store %v, %in[%i, %j] : memref<4x6xf32>
      }
    }
    gpu.launch_func @kernels::@kernel_rows
        blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%in : memref<4x6xf32>, %sums : memref<4xf32>, %maxs : memref<4xf32>)
    %p = memref.cast %sums : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    %q = memref.cast %maxs : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%q) : (memref<*xf32>) -> ()
    return
  }
'''.replace('$WG', wg(4)) + decls('printMemrefF32')
    rows = [[((i * 6 + j) % 7) * 0.5 for j in range(6)] for i in range(4)]
    return module(body), [([sum(r) for r in rows], 'f'), ([max(r) for r in rows], 'f')]


@test('scf_while', 'scf.while: Collatz step counts per thread')
def t_scf_while():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_collatz(%out : memref<12xi32>)
      kernel attributes { $WG } {
      %x = gpu.thread_id x
      %xi = arith.index_cast %x : index to i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %three = arith.constant 3 : i32
      %zero = arith.constant 0 : i32
      %n0 = arith.addi %xi, %one : i32
      %res:2 = scf.while (%n = %n0, %steps = %zero) : (i32, i32) -> (i32, i32) {
        %go = arith.cmpi ne, %n, %one : i32
        scf.condition(%go) %n, %steps : i32, i32
      } do {
      ^bb0(%n1: i32, %s1: i32):
        %rem = arith.remui %n1, %two : i32
        %even = arith.cmpi eq, %rem, %zero : i32
        %half = arith.divui %n1, %two : i32
        %t = arith.muli %n1, %three : i32
        %odd = arith.addi %t, %one : i32
        %n2 = arith.select %even, %half, %odd : i32
        %s2 = arith.addi %s1, %one : i32
        scf.yield %n2, %s2 : i32, i32
      }
      memref.store %res#1, %out[%x] : memref<12xi32>
      gpu.return
    }
  }

  func.func @main() {
    %out = memref.alloc() : memref<12xi32>
    %c1 = arith.constant 1 : index
    %c12 = arith.constant 12 : index
    gpu.launch_func @kernels::@kernel_collatz
        blocks in (%c1, %c1, %c1) threads in (%c12, %c1, %c1)
        args(%out : memref<12xi32>)
    %p = memref.cast %out : memref<12xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(12)) + decls('printMemrefI32')

    def collatz(n):
        s = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            s += 1
        return s
    return module(body), [([collatz(i + 1) for i in range(12)], 'i')]


@test('host_loops', 'host-side scf.for with iter_args and memref.store/load feeding a kernel')
def t_host_loops():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_scale(%buf : memref<3x5xi32>, %k : memref<1xi32>)
      kernel attributes { $WG } {
      %x = gpu.block_id x
      %y = gpu.block_id y
      %c0 = arith.constant 0 : index
      %s = memref.load %k[%c0] : memref<1xi32>
      %v = memref.load %buf[%y, %x] : memref<3x5xi32>
      %w = arith.muli %v, %s : i32
      memref.store %w, %buf[%y, %x] : memref<3x5xi32>
      gpu.return
    }
  }

  func.func @main() {
    %buf = memref.alloc() : memref<3x5xi32>
    %k = memref.alloc() : memref<1xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %zero = arith.constant 0 : i32
    %acc = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %zero) -> (i32) {
      %r = scf.for %j = %c0 to %c5 step %c1 iter_args(%b = %a) -> (i32) {
        %ji = arith.index_cast %j : index to i32
        %b2 = arith.addi %b, %ji : i32
        memref.store %b2, %buf[%i, %j] : memref<3x5xi32>
        scf.yield %b2 : i32
      }
      scf.yield %r : i32
    }
    %three = arith.constant 3 : i32
    %m = arith.remsi %acc, %three : i32
    %kk = arith.addi %m, %three : i32
    memref.store %kk, %k[%c0] : memref<1xi32>
    %p0 = memref.cast %buf : memref<3x5xi32> to memref<*xi32>
    call @printMemrefI32(%p0) : (memref<*xi32>) -> ()
    gpu.launch_func @kernels::@kernel_scale
        blocks in (%c5, %c3, %c1) threads in (%c1, %c1, %c1)
        args(%buf : memref<3x5xi32>, %k : memref<1xi32>)
    call @printMemrefI32(%p0) : (memref<*xi32>) -> ()
    %pk = memref.cast %k : memref<1xi32> to memref<*xi32>
    call @printMemrefI32(%pk) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(1)) + decls('printMemrefI32')
    buf = []
    acc = 0
    for i in range(3):
        row = []
        for j in range(5):
            acc += j
            row.append(acc)
        buf.append(row)
    kk = acc % 3 + 3
    scaled = [[v * kk for v in row] for row in buf]
    return module(body), [(buf, 'i'), (scaled, 'i'), ([kk], 'i')]


# ---------------------------------------------------------------- workgroup memory
@test('workgroup_reverse', 'workgroup attribution + gpu.barrier: reverse within each workgroup')
def t_wg_reverse():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_rev(%in : memref<16xf32>, %out : memref<16xf32>)
      workgroup(%sh : memref<8xf32, #gpu.address_space<workgroup>>)
      kernel attributes { $WG } {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %base = arith.muli %b, %c8 : index
      %g = arith.addi %base, %t : index
      %v = memref.load %in[%g] : memref<16xf32>
      memref.store %v, %sh[%t] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c7, %t : index
      %w = memref.load %sh[%r] : memref<8xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%g] : memref<16xf32>
      gpu.return
    }
  }

  func.func @main() {
    %in = memref.alloc() : memref<16xf32>
    %out = memref.alloc() : memref<16xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %k = arith.constant 1.5 : f32
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %v = arith.mulf %f, %k : f32
      memref.store %v, %in[%i] : memref<16xf32>
    }
    gpu.launch_func @kernels::@kernel_rev
        blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%in : memref<16xf32>, %out : memref<16xf32>)
    %p = memref.cast %out : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
'''.replace('$WG', wg(8)) + decls('printMemrefF32')
    out = []
    for b in range(2):
        for t in range(8):
            out.append((b * 8 + 7 - t) * 1.5)
    return module(body), [(out, 'f')]


@test('workgroup_tree_reduce', 'tree reduction in workgroup memory: scf.for with barriers, scf.if by lane')
def t_wg_tree():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_reduce(%in : memref<16xi32>, %out : memref<16xi32>, %total : memref<1xi32>)
      workgroup(%sh : memref<16xi32, 3>)
      kernel attributes { $WG } {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %v = memref.load %in[%t] : memref<16xi32>
      memref.store %v, %sh[%t] : memref<16xi32, 3>
      gpu.barrier
      scf.for %k = %c0 to %c4 step %c1 {
        %s = arith.shrui %c8, %k : index
        %active = arith.cmpi ult, %t, %s : index
        scf.if %active {
          %o = arith.addi %t, %s : index
          %a = memref.load %sh[%t] : memref<16xi32, 3>
          %b = memref.load %sh[%o] : memref<16xi32, 3>
          %c = arith.addi %a, %b : i32
          memref.store %c, %sh[%t] : memref<16xi32, 3>
        }
        gpu.barrier
      }
      %r = memref.load %sh[%t] : memref<16xi32, 3>
      memref.store %r, %out[%t] : memref<16xi32>
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %r, %total[%c0] : memref<1xi32>
      }
      gpu.return
    }
  }

  func.func @main() {
    %in = memref.alloc() : memref<16xi32>
    %out = memref.alloc() : memref<16xi32>
    %total = memref.alloc() : memref<1xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %v = arith.muli %ii, %ii : i32
      memref.store %v, %in[%i] : memref<16xi32>
    }
    gpu.launch_func @kernels::@kernel_reduce
        blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%in : memref<16xi32>, %out : memref<16xi32>, %total : memref<1xi32>)
    %p = memref.cast %out : memref<16xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    %q = memref.cast %total : memref<1xi32> to memref<*xi32>
    call @printMemrefI32(%q) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(16)) + decls('printMemrefI32')
    sh = [i * i for i in range(16)]
    for k in range(4):
        s = 8 >> k
        new = list(sh)
        for t in range(s):
            new[t] = sh[t] + sh[t + s]
        sh = new
    return module(body), [(sh, 'i'), ([sh[0]], 'i')]


@test('private_alloca', 'memref.alloca in private memory: a per-thread scratch array')
def t_private():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_priv(%out : memref<8xi32>)
      kernel attributes { $WG } {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %scratch = memref.alloca() : memref<4xi32, #gpu.address_space<private>>
      scf.for %i = %c0 to %c4 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %v = arith.muli %ii, %ti : i32
        memref.store %v, %scratch[%i] : memref<4xi32, #gpu.address_space<private>>
      }
      %zero = arith.constant 0 : i32
      %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (i32) {
        %v = memref.load %scratch[%i] : memref<4xi32, #gpu.address_space<private>>
        %a = arith.addi %acc, %v : i32
        scf.yield %a : i32
      }
      memref.store %sum, %out[%t] : memref<8xi32>
      gpu.return
    }
  }

  func.func @main() {
    %out = memref.alloc() : memref<8xi32>
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@kernel_priv
        blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%out : memref<8xi32>)
    %p = memref.cast %out : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(8)) + decls('printMemrefI32')
    return module(body), [([6 * t for t in range(8)], 'i')]


# ---------------------------------------------------------------- subgroups
def subgroup_body():
    return '''
  gpu.module @kernels {
    gpu.func @kernel_sg(%ini : memref<16xi32>, %inf : memref<16xf32>, %out : memref<3x16xi32>, %outf : memref<16xf32>)
      kernel attributes { $WG } {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %base = arith.muli %b, %c4 : index
      %g = arith.addi %base, %t : index
      %vi = memref.load %ini[%g] : memref<16xi32>
      %vf = memref.load %inf[%g] : memref<16xf32>
      %sum = gpu.subgroup_reduce add %vi : (i32) -> i32
      %max = gpu.subgroup_reduce maxsi %vi : (i32) -> i32
      %min = gpu.subgroup_reduce minsi %vi : (i32) -> i32
      %fsum = gpu.subgroup_reduce add %vf : (f32) -> f32
      memref.store %sum, %out[%c0, %g] : memref<3x16xi32>
      memref.store %max, %out[%c1, %g] : memref<3x16xi32>
      memref.store %min, %out[%c2, %g] : memref<3x16xi32>
      memref.store %fsum, %outf[%g] : memref<16xf32>
      gpu.return
    }
  }

  func.func @main() {
    %ini = memref.alloc() : memref<16xi32>
    %inf = memref.alloc() : memref<16xf32>
    %out = memref.alloc() : memref<3x16xi32>
    %outf = memref.alloc() : memref<16xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %k5 = arith.constant 5 : i32
    %k3 = arith.constant 3 : i32
    %half = arith.constant 0.5 : f32
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %sq = arith.muli %ii, %ii : i32
      %m = arith.remsi %sq, %k5 : i32
      %v = arith.subi %m, %k3 : i32
      %w = arith.muli %v, %ii : i32
      memref.store %w, %ini[%i] : memref<16xi32>
      %f = arith.sitofp %ii : i32 to f32
      %h = arith.mulf %f, %half : f32
      memref.store %h, %inf[%i] : memref<16xf32>
    }
    gpu.launch_func @kernels::@kernel_sg
        blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%ini : memref<16xi32>, %inf : memref<16xf32>, %out : memref<3x16xi32>, %outf : memref<16xf32>)
    %p = memref.cast %out : memref<3x16xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    %q = memref.cast %outf : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%q) : (memref<*xf32>) -> ()
    return
  }
'''.replace('$WG', wg(4)) + decls('printMemrefI32', 'printMemrefF32')


def subgroup_expected():
    # Workgroups of 4 threads: every Vulkan subgroup size (>= 4 on lavapipe
    # and on desktop GPUs) holds a whole workgroup, so a subgroup reduction
    # reduces each group of 4.
    vi = [(i * i % 5 - 3) * i for i in range(16)]
    vf = [i * 0.5 for i in range(16)]
    rows = [[], [], []]
    fs = []
    for g in range(16):
        grp = vi[g // 4 * 4: g // 4 * 4 + 4]
        rows[0].append(sum(grp))
        rows[1].append(max(grp))
        rows[2].append(min(grp))
        fs.append(sum(vf[g // 4 * 4: g // 4 * 4 + 4]))
    return [(rows, 'i'), (fs, 'f')]


@test('subgroup_reduce', 'gpu.subgroup_reduce add/maxsi/minsi on i32 and add on f32, device env (GroupNonUniformArithmetic)')
def t_sg_default():
    return module(subgroup_body(), env=None), subgroup_expected()


@test('subgroup_reduce_fallback', 'the same reductions under a target env without GroupNonUniformArithmetic: workgroup-memory fallback')
def t_sg_fallback():
    env = ('spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform], '
           '[SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>')
    return module(subgroup_body(), env=env), subgroup_expected()


# ---------------------------------------------------------------- spirv ops
SPIRV_INPUTS = [0, 1, 7, 8, 255, -256, 1 << 20, 12345, -99999, 3, -1,
                -2**31, 2**31 - 1, 6, 5, 4]


@test('spirv_ops', 'SPIR-V dialect ops written in a gpu.func (BitCount, BitReverse, GL.FindUMsb, GroupNonUniformLogicalAnd on i1, GroupNonUniformIAdd) pass through lowering as written')
def t_spirv_ops():
    env = ('spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, '
           'GroupNonUniformArithmetic], [SPV_KHR_storage_buffer_storage_class]>, '
           '#spirv.resource_limits<>>')
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_spirv(%in : memref<16xi32>, %out : memref<5x16xi32>)
      kernel attributes { $WG } {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %base = arith.muli %b, %c4 : index
      %g = arith.addi %base, %t : index
      %x = memref.load %in[%g] : memref<16xi32>
      %zero = arith.constant 0 : i32
      %bits = spirv.BitCount %x : i32
      %rev = spirv.BitReverse %x : i32
      %msb = spirv.GL.FindUMsb %x : i32
      %nonneg = arith.cmpi sge, %x, %zero : i32
      %all = spirv.GroupNonUniformLogicalAnd "Subgroup" "Reduce" %nonneg : i1
      %all32 = arith.extui %all : i1 to i32
      %sum = spirv.GroupNonUniformIAdd "Subgroup" "Reduce" %x : i32
      memref.store %bits, %out[%c0, %g] : memref<5x16xi32>
      memref.store %rev, %out[%c1, %g] : memref<5x16xi32>
      memref.store %msb, %out[%c2, %g] : memref<5x16xi32>
      memref.store %all32, %out[%c3, %g] : memref<5x16xi32>
      memref.store %sum, %out[%c4, %g] : memref<5x16xi32>
      gpu.return
    }
  }

  func.func @main() {
    %in = memref.alloc() : memref<16xi32>
    %out = memref.alloc() : memref<5x16xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %vals = arith.constant dense<$INPUTS> : vector<16xi32>
    vector.store %vals, %in[%c0] : memref<16xi32>, vector<16xi32>
    gpu.launch_func @kernels::@kernel_spirv
        blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%in : memref<16xi32>, %out : memref<5x16xi32>)
    %p = memref.cast %out : memref<5x16xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(4)).replace('$INPUTS', vec_lit(SPIRV_INPUTS)) + decls('printMemrefI32')

    # Workgroups of 4 threads: every Vulkan subgroup size (>= 4 on lavapipe
    # and desktop GPUs) holds a whole workgroup, so the group ops see the 4.
    def rev(x):
        return i32(int('{:032b}'.format(u32(x))[::-1], 2))

    def umsb(x):
        return -1 if u32(x) == 0 else u32(x).bit_length() - 1

    xs = SPIRV_INPUTS
    rows = [[bin(u32(x)).count('1') for x in xs], [rev(x) for x in xs],
            [umsb(x) for x in xs], [], []]
    for g in range(16):
        grp = xs[g // 4 * 4: g // 4 * 4 + 4]
        rows[3].append(1 if all(v >= 0 for v in grp) else 0)
        rows[4].append(i32(sum(grp)))
    return module(body, env=env), [(rows, 'i')]


# ---------------------------------------------------------------- vectors
@test('vector_ops', 'vector<4xf32> load/store, splat, broadcast, extract, insert, reduction')
def t_vector_ops():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_vec(%in : memref<16xf32>, %out : memref<16xf32>, %sums : memref<4xf32>)
      kernel attributes { $WG } {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %v = vector.load %in[%i] : memref<16xf32>, vector<4xf32>
      %two = arith.constant 2.0 : f32
      %s = vector.splat %two : vector<4xf32>
      %m = arith.mulf %v, %s : vector<4xf32>
      %one = arith.constant 1.0 : f32
      %o = vector.broadcast %one : f32 to vector<4xf32>
      %a = arith.addf %m, %o : vector<4xf32>
      %e = vector.extract %a[3] : f32 from vector<4xf32>
      %w = vector.insert %e, %a [0] : f32 into vector<4xf32>
      vector.store %w, %out[%i] : memref<16xf32>, vector<4xf32>
      %r = vector.reduction <add>, %v : vector<4xf32> into f32
      memref.store %r, %sums[%t] : memref<4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %in = memref.alloc() : memref<16xf32>
    %out = memref.alloc() : memref<16xf32>
    %sums = memref.alloc() : memref<4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %k = arith.constant 0.25 : f32
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %v = arith.mulf %f, %k : f32
      memref.store %v, %in[%i] : memref<16xf32>
    }
    gpu.launch_func @kernels::@kernel_vec
        blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%in : memref<16xf32>, %out : memref<16xf32>, %sums : memref<4xf32>)
    %p = memref.cast %out : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    %q = memref.cast %sums : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%q) : (memref<*xf32>) -> ()
    return
  }
'''.replace('$WG', wg(4)) + decls('printMemrefF32')
    inp = [i * 0.25 for i in range(16)]
    out = []
    sums = []
    for t in range(4):
        v = inp[4 * t:4 * t + 4]
        a = [x * 2 + 1 for x in v]
        a[0] = a[3]
        out += a
        sums.append(sum(v))
    return module(body), [(out, 'f'), (sums, 'f')]


# MLIR 19 lowers vector.load/store of a memref to an OpBitcast of the
# buffer pointer, which Vulkan's logical addressing rejects; so the kernels
# compared with MLIR's binaries build vectors from scalar loads (as MLIR's
# own vector runner tests do). vector_ops.mlir keeps vector.load/store.
LOAD_LANE = """
      %%i%(n)d = arith.constant %(n)d : index
      %%e%(n)d = memref.load %%arg0[%%i%(n)d] : memref<4xi32>"""
LOAD2X2 = (''.join(LOAD_LANE % {'n': n} for n in range(4)) + """
      %u0 = vector.splat %e0 : vector<2xi32>
      %v0 = vector.insert %e1, %u0 [1] : i32 into vector<2xi32>
      %u1 = vector.splat %e2 : vector<2xi32>
      %v1 = vector.insert %e3, %u1 [1] : i32 into vector<2xi32>""")
LOAD4 = (''.join(LOAD_LANE % {'n': n} for n in range(4)) + """
      %w0 = vector.splat %e0 : vector<4xi32>
      %w1 = vector.insert %e1, %w0 [1] : i32 into vector<4xi32>
      %w2 = vector.insert %e2, %w1 [2] : i32 into vector<4xi32>
      %v = vector.insert %e3, %w2 [3] : i32 into vector<4xi32>""")


def store_lanes(vec, n, at, size):
    """Stores the n lanes of vec to %arg1[at..at+n] with scalar stores."""
    name = vec.lstrip('%')
    out = []
    for k in range(n):
        out.append('\n      %%%s_x%d = vector.extract %s[%d] : i32 from vector<%dxi32>' % (name, k, vec, k, n))
        out.append('\n      %%%s_o%d = arith.constant %d : index' % (name, k, at + k))
        out.append('\n      memref.store %%%s_x%d, %%arg1[%%%s_o%d] : memref<%dxi32>' % (name, k, name, k, size))
    return ''.join(out)


def vec_io_module(kernel_ops, nout, wgx=1):
    """A kernel reading two vector<2xi32> / one vector<4xi32> inputs."""
    return '''
  gpu.module @kernels {
    gpu.func @kernel_vector(%arg0 : memref<4xi32>, %arg1 : memref<NOUTxi32>)
      kernel attributes { $WG } {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
KOPS
      gpu.return
    }
  }

  func.func @main() {
    %buf0 = memref.alloc() : memref<4xi32>
    %buf1 = memref.alloc() : memref<NOUTxi32>
    %idx0 = arith.constant 0 : index
    %idx1 = arith.constant 1 : index
    %init = arith.constant dense<[10, 11, 12, 13]> : vector<4xi32>
    vector.store %init, %buf0[%idx0] : memref<4xi32>, vector<4xi32>
    %minus1 = arith.constant -1 : i32
    %b1 = memref.cast %buf1 : memref<NOUTxi32> to memref<?xi32>
    call @fillResource1DInt(%b1, %minus1) : (memref<?xi32>, i32) -> ()
    gpu.launch_func @kernels::@kernel_vector
        blocks in (%idx1, %idx1, %idx1) threads in (%idx1, %idx1, %idx1)
        args(%buf0 : memref<4xi32>, %buf1 : memref<NOUTxi32>)
    %p = memref.cast %buf1 : memref<NOUTxi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(wgx)).replace('KOPS', kernel_ops).replace('NOUT', str(nout)) \
        + decls('fillResource1DInt', 'printMemrefI32')


@test('vector_shuffle', 'vector.shuffle of two vector<2xi32> into vector<4xi32> (MLIR vector-shuffle.mlir)')
def t_vector_shuffle():
    ops = LOAD2X2 + '''
      %r = vector.shuffle %v0, %v1 [3, 0, 2, 1] : vector<2xi32>, vector<2xi32>
      %s = vector.shuffle %v0, %v1 [2, 2, 1] : vector<2xi32>, vector<2xi32>''' \
        + store_lanes('%r', 4, 0, 8) + store_lanes('%s', 3, 4, 8)
    v = [10, 11, 12, 13]
    r = [v[3], v[0], v[2], v[1]] + [v[2], v[2], v[1], -1]
    return module(vec_io_module(ops, 8)), [(r, 'i')]


@test('vector_interleave', 'vector.interleave of two vector<2xi32> (MLIR vector-interleave.mlir)')
def t_vector_interleave():
    ops = LOAD2X2 + '''
      %r = vector.interleave %v0, %v1 : vector<2xi32> -> vector<4xi32>''' + store_lanes('%r', 4, 0, 4)
    return module(vec_io_module(ops, 4)), [([10, 12, 11, 13], 'i')]


@test('vector_deinterleave', 'vector.deinterleave of a vector<4xi32> (MLIR vector-deinterleave.mlir)')
def t_vector_deinterleave():
    ops = LOAD4 + '''
      %a, %b = vector.deinterleave %v : vector<4xi32> -> vector<2xi32>''' \
        + store_lanes('%a', 2, 0, 4) + store_lanes('%b', 2, 2, 4)
    return module(vec_io_module(ops, 4)), [([10, 12, 11, 13], 'i')]


@test('vector_bitcast_reduce', 'vector.bitcast f32<->i32 lanes, vector.reduction <maxsi>/<mul>, vector<3xi32> splat')
def t_vector_bitcast():
    ops = LOAD4 + '''
      %f = vector.bitcast %v : vector<4xi32> to vector<4xf32>
      %g = vector.bitcast %f : vector<4xf32> to vector<4xi32>
      %mx = vector.reduction <maxsi>, %g : vector<4xi32> into i32
      %pr = vector.reduction <mul>, %g : vector<4xi32> into i32
      %c1 = arith.constant 1 : index
      memref.store %mx, %arg1[%c0] : memref<5xi32>
      memref.store %pr, %arg1[%c1] : memref<5xi32>
      %sp = vector.splat %mx : vector<3xi32>''' + store_lanes('%sp', 3, 2, 5)
    return module(vec_io_module(ops, 5)), [([13, 10 * 11 * 12 * 13, 13, 13, 13], 'i')]


# ---------------------------------------------------------------- extended arithmetic
EXT_A = [-1, 24, 4294967295, 43, 2147483647, -2147483648, 65536, 7]
EXT_B = [1, 18, 1, 4294967295, 2, -2147483648, 65536, -9]


def ext_module(kernel, nres):
    return '''
  gpu.module @kernels {
    gpu.func @kernel_ext(%arg0 : memref<8xi32>, %arg1 : memref<8xi32>, %arg2 : memref<8xi32>, %arg3 : memref<8xi32>)
      kernel attributes { $WG } {
      %0 = gpu.block_id x
      %lhs = memref.load %arg0[%0] : memref<8xi32>
      %rhs = memref.load %arg1[%0] : memref<8xi32>
KOPS
      memref.store %r0, %arg2[%0] : memref<8xi32>
      memref.store %r1, %arg3[%0] : memref<8xi32>
      gpu.return
    }
  }

  func.func @main() {
    %buf0 = memref.alloc() : memref<8xi32>
    %buf1 = memref.alloc() : memref<8xi32>
    %buf2 = memref.alloc() : memref<8xi32>
    %buf3 = memref.alloc() : memref<8xi32>
    %i32_0 = arith.constant 0 : i32
    %buf4 = memref.cast %buf2 : memref<8xi32> to memref<?xi32>
    %buf5 = memref.cast %buf3 : memref<8xi32> to memref<?xi32>
    call @fillResource1DInt(%buf4, %i32_0) : (memref<?xi32>, i32) -> ()
    call @fillResource1DInt(%buf5, %i32_0) : (memref<?xi32>, i32) -> ()
    %idx_0 = arith.constant 0 : index
    %idx_1 = arith.constant 1 : index
    %idx_8 = arith.constant 8 : index
    %lhs_vals = arith.constant dense<VA> : vector<8xi32>
    %rhs_vals = arith.constant dense<VB> : vector<8xi32>
    vector.store %lhs_vals, %buf0[%idx_0] : memref<8xi32>, vector<8xi32>
    vector.store %rhs_vals, %buf1[%idx_0] : memref<8xi32>, vector<8xi32>
    gpu.launch_func @kernels::@kernel_ext
        blocks in (%idx_8, %idx_1, %idx_1) threads in (%idx_1, %idx_1, %idx_1)
        args(%buf0 : memref<8xi32>, %buf1 : memref<8xi32>, %buf2 : memref<8xi32>, %buf3 : memref<8xi32>)
    %p0 = memref.cast %buf4 : memref<?xi32> to memref<*xi32>
    %p1 = memref.cast %buf5 : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%p0) : (memref<*xi32>) -> ()
    call @printMemrefI32(%p1) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(1)).replace('KOPS', kernel).replace('VA', vec_lit(EXT_A)).replace('VB', vec_lit(EXT_B)) \
        + decls('fillResource1DInt', 'printMemrefI32')


ENV14 = ('spirv.target_env = #spirv.target_env<#spirv.vce<v1.4, [Shader], '
         '[SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>')


@test('addui_extended', 'arith.addui_extended: sum and carry (MLIR addui_extended.mlir values and more)')
def t_addui_ext():
    k = '''      %r0, %carry = arith.addui_extended %lhs, %rhs : i32, i1
      %r1 = arith.extui %carry : i1 to i32'''
    s = [i32(u32(a) + u32(b)) for a, b in zip(EXT_A, EXT_B)]
    c = [int(u32(a) + u32(b) >= 1 << 32) for a, b in zip(EXT_A, EXT_B)]
    return module(ext_module(k, 2), ENV14), [(s, 'i'), (c, 'i')]


@test('mului_extended', 'arith.mului_extended: low and high words of the unsigned product')
def t_mului_ext():
    k = '      %r0, %r1 = arith.mului_extended %lhs, %rhs : i32'
    p = [u32(a) * u32(b) for a, b in zip(EXT_A, EXT_B)]
    return module(ext_module(k, 2), ENV14), [([i32(x) for x in p], 'i'), ([i32(x >> 32) for x in p], 'i')]


@test('mulsi_extended', 'arith.mulsi_extended: low and high words of the signed product')
def t_mulsi_ext():
    k = '      %r0, %r1 = arith.mulsi_extended %lhs, %rhs : i32'
    p = [i32(a) * i32(b) for a, b in zip(EXT_A, EXT_B)]
    return module(ext_module(k, 2), ENV14), [([i32(x) for x in p], 'i'), ([i32(x >> 32) for x in p], 'i')]


# ---------------------------------------------------------------- math
def math_module(rows, inputs):
    """Row k of the output is roundeven(f_k(x) * 1000) for each input x."""
    n = len(rows)
    stmts = []
    for k, (src, _) in enumerate(rows):
        stmts.append('      ' + src.replace('%r', '%%f%d' % k))
        stmts.append('      %%s%d = arith.mulf %%f%d, %%k1000 : f32' % (k, k))
        stmts.append('      %%r%d = math.roundeven %%s%d : f32' % (k, k))
        stmts.append('      %%i%d = arith.constant %d : index' % (k, k))
        stmts.append('      memref.store %%r%d, %%out[%%i%d, %%t] : memref<%dx8xf32>' % (k, k, n))
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_math(%in : memref<8xf32>, %in2 : memref<8xf32>, %out : memref<NROWSx8xf32>)
      kernel attributes { $WG } {
      %t = gpu.thread_id x
      %k1000 = arith.constant 1000.0 : f32
      %x = memref.load %in[%t] : memref<8xf32>
      %y = memref.load %in2[%t] : memref<8xf32>
KOPS
      gpu.return
    }
  }

  func.func @main() {
    %in = memref.alloc() : memref<8xf32>
    %in2 = memref.alloc() : memref<8xf32>
    %out = memref.alloc() : memref<NROWSx8xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %vx = arith.constant dense<VX> : vector<8xf32>
    %vy = arith.constant dense<VY> : vector<8xf32>
    vector.store %vx, %in[%c0] : memref<8xf32>, vector<8xf32>
    vector.store %vy, %in2[%c0] : memref<8xf32>, vector<8xf32>
    gpu.launch_func @kernels::@kernel_math
        blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%in : memref<8xf32>, %in2 : memref<8xf32>, %out : memref<NROWSx8xf32>)
    %p = memref.cast %out : memref<NROWSx8xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
'''.replace('$WG', wg(8)).replace('KOPS', '\n'.join(stmts)).replace('NROWS', str(n)) \
        .replace('VX', vec_lit(flit(v) for v in inputs[0])).replace('VY', vec_lit(flit(v) for v in inputs[1])) \
        + decls('printMemrefF32')
    xs = [f32(v) for v in inputs[0]]
    ys = [f32(v) for v in inputs[1]]
    out = [[robust_round(f32(f32(fn(x, y)) * 1000.0)) for x, y in zip(xs, ys)] for _, fn in rows]
    return body, [(out, 'f')]


POS = [0.3, 0.6, 1.0, 1.75, 2.0, 3.1, 5.5, 10.0]
# Inputs of math_more, chosen like SMALL (no result near a rounding tie).
SMALL2 = [-2.08, -1.22, -0.59, -0.1, 0.15, 0.66, 1.22, 1.41]
SMALL = [-2.09, -1.22, -0.6, -0.1, 0.15, 0.66, 1.2, 1.9]


@test('math_exp_log', 'math.exp/exp2/log/log2/sqrt/rsqrt, scaled by 1000 and rounded in the kernel')
def t_math_exp():
    rows = [
        ('%r = math.exp %y : f32', lambda x, y: math.exp(y)),
        ('%r = math.exp2 %y : f32', lambda x, y: 2.0 ** y),
        ('%r = math.log %x : f32', lambda x, y: math.log(x)),
        ('%r = math.log2 %x : f32', lambda x, y: math.log2(x)),
        ('%r = math.sqrt %x : f32', lambda x, y: math.sqrt(x)),
        ('%r = math.rsqrt %x : f32', lambda x, y: 1 / math.sqrt(x)),
    ]
    body, prints = math_module(rows, (POS, SMALL))
    return module(body), prints


@test('math_trig', 'math.sin/cos/tanh, scaled by 1000 and rounded in the kernel')
def t_math_trig():
    rows = [
        ('%r = math.sin %y : f32', lambda x, y: math.sin(y)),
        ('%r = math.cos %y : f32', lambda x, y: math.cos(y)),
        ('%r = math.tanh %y : f32', lambda x, y: math.tanh(y)),
    ]
    body, prints = math_module(rows, (POS, SMALL))
    return module(body), prints


@test('math_misc', 'math.powf/fma/floor/ceil/absf/copysign/round, scaled by 1000 and rounded')
def t_math_misc():
    rows = [
        ('%r = math.powf %x, %y : f32', lambda x, y: x ** y),
        ('%r = math.fma %x, %y, %y : f32', lambda x, y: x * y + y),
        ('%r = math.floor %y : f32', lambda x, y: math.copysign(float(math.floor(y)), y)),
        ('%r = math.ceil %y : f32', lambda x, y: math.copysign(float(math.ceil(y)), y)),
        ('%r = math.absf %y : f32', lambda x, y: abs(y)),
        ('%r = math.copysign %x, %y : f32', lambda x, y: math.copysign(x, y)),
        ('%a = arith.mulf %y, %x : f32\n      %r = math.round %a : f32', lambda x, y: math.copysign(float(math.floor(abs(f32(x * y)) + 0.5)), x * y)),
    ]
    body, prints = math_module(rows, (POS, SMALL))
    return module(body), prints



# ---------------------------------------------------------------- more gpu / index / memref
@test('multi_module', 'two gpu.modules, a kernel launched repeatedly from a host loop, one kernel sized by its launch')
def t_multi_module():
    body = """
  gpu.module @producer {
    gpu.func @iota(%out : memref<2x8xi32>)
      kernel attributes { $WG } {
      %x = gpu.global_id x
      %y = gpu.global_id y
      %c8 = arith.constant 8 : index
      %r = arith.muli %y, %c8 : index
      %v = arith.addi %r, %x : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %out[%y, %x] : memref<2x8xi32>
      gpu.return
    }
  }
  gpu.module @consumer {
    gpu.func @step(%buf : memref<2x8xi32>) kernel {
      %x = gpu.thread_id x
      %y = gpu.block_id x
      %v = memref.load %buf[%y, %x] : memref<2x8xi32>
      %three = arith.constant 3 : i32
      %m = arith.muli %v, %three : i32
      %one = arith.constant 1 : i32
      %s = arith.subi %m, %one : i32
      memref.store %s, %buf[%y, %x] : memref<2x8xi32>
      gpu.return
    }
  }

  func.func @main() {
    %buf = memref.alloc() : memref<2x8xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @producer::@iota
        blocks in (%c2, %c2, %c1) threads in (%c4, %c1, %c1)
        args(%buf : memref<2x8xi32>)
    %p = memref.cast %buf : memref<2x8xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    scf.for %i = %c0 to %c3 step %c1 {
      gpu.launch_func @consumer::@step
          blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1)
          args(%buf : memref<2x8xi32>)
    }
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
""".replace('$WG', wg(4)) + decls('printMemrefI32')
    first = [[y * 8 + x for x in range(8)] for y in range(2)]
    after = [[v for v in row] for row in first]
    for _ in range(3):
        after = [[i32(v * 3 - 1) for v in row] for row in after]
    return module(body), [(first, 'i'), (after, 'i')]


@test('gpu_shuffle', 'gpu.shuffle xor/down/up/idx within workgroups of 4 (width 4), with the valid flag')
def t_gpu_shuffle():
    body = """
  gpu.module @kernels {
    gpu.func @kernel_shuffle(%in : memref<8xf32>, %out : memref<4x8xf32>, %valid : memref<2x8xi32>)
      kernel attributes { $WG } {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %base = arith.muli %b, %c4 : index
      %g = arith.addi %base, %t : index
      %x = memref.load %in[%g] : memref<8xf32>
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %three = arith.constant 3 : i32
      %width = arith.constant 4 : i32
      %r0, %v0 = gpu.shuffle xor %x, %one, %width : f32
      %r1, %v1 = gpu.shuffle down %x, %one, %width : f32
      %r2, %v2 = gpu.shuffle up %x, %two, %width : f32
      %r3, %v3 = gpu.shuffle idx %x, %three, %width : f32
      memref.store %r0, %out[%c0, %g] : memref<4x8xf32>
      memref.store %r3, %out[%c3, %g] : memref<4x8xf32>
      %z = arith.constant -1.0 : f32
      %s1 = arith.select %v1, %r1, %z : f32
      %s2 = arith.select %v2, %r2, %z : f32
      memref.store %s1, %out[%c1, %g] : memref<4x8xf32>
      memref.store %s2, %out[%c2, %g] : memref<4x8xf32>
      %i1 = arith.extui %v1 : i1 to i32
      %i2 = arith.extui %v2 : i1 to i32
      memref.store %i1, %valid[%c0, %g] : memref<2x8xi32>
      memref.store %i2, %valid[%c1, %g] : memref<2x8xi32>
      gpu.return
    }
  }

  func.func @main() {
    %in = memref.alloc() : memref<8xf32>
    %out = memref.alloc() : memref<4x8xf32>
    %valid = memref.alloc() : memref<2x8xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %k = arith.constant 1.5 : f32
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %v = arith.mulf %f, %k : f32
      memref.store %v, %in[%i] : memref<8xf32>
    }
    gpu.launch_func @kernels::@kernel_shuffle
        blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%in : memref<8xf32>, %out : memref<4x8xf32>, %valid : memref<2x8xi32>)
    %p = memref.cast %out : memref<4x8xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    %q = memref.cast %valid : memref<2x8xi32> to memref<*xi32>
    call @printMemrefI32(%q) : (memref<*xi32>) -> ()
    return
  }
""".replace('$WG', wg(4)) + decls('printMemrefF32', 'printMemrefI32')
    x = [i * 1.5 for i in range(8)]
    rows = [[], [], [], []]
    valid = [[], []]
    for g in range(8):
        base, t = g // 4 * 4, g % 4
        rows[0].append(x[base + (t ^ 1)])
        ok1 = t + 1 < 4
        rows[1].append(x[base + t + 1] if ok1 else -1.0)
        ok2 = t - 2 >= 0
        rows[2].append(x[base + t - 2] if ok2 else -1.0)
        rows[3].append(x[base + 3])
        valid[0].append(int(ok1))
        valid[1].append(int(ok2))
    return module(body, env=None), [(rows, 'f'), (valid, 'i')]


@test('index_ops', 'index dialect arithmetic and comparisons in a kernel')
def t_index_ops():
    ops = [
        ('index.add', lambda a, b: a + b),
        ('index.sub', lambda a, b: a - b),
        ('index.mul', lambda a, b: a * b),
        ('index.divs', lambda a, b: sdiv(a, b)),
        ('index.rems', lambda a, b: a - sdiv(a, b) * b),
        ('index.maxs', max),
        ('index.mins', min),
        ('index.and', lambda a, b: a & b),
        ('index.or', lambda a, b: a | b),
        ('index.shl', lambda a, b: a << (b & 7)),
    ]
    A = [7, -7, 20, -20, 100, 3, 0, 9]
    B = [2, 2, -3, 3, 7, 1, 5, 4]
    stmts = []
    for k, (op, _) in enumerate(ops):
        rhs = '%b' if op != 'index.shl' else '%sh'
        stmts.append('      %%r%d = %s %%a, %s' % (k, op, rhs))
        stmts.append('      %%ri%d = arith.index_cast %%r%d : index to i32' % (k, k))
        stmts.append('      %%k%d = arith.constant %d : index' % (k, k))
        stmts.append('      memref.store %%ri%d, %%out[%%k%d, %%t] : memref<%dx8xi32>' % (k, k, len(ops) + 1))
    n = len(ops)
    stmts.append('      %lt = index.cmp slt(%a, %b)')
    stmts.append('      %lti = arith.extui %lt : i1 to i32')
    stmts.append('      %%kn = arith.constant %d : index' % n)
    stmts.append('      memref.store %%lti, %%out[%%kn, %%t] : memref<%dx8xi32>' % (n + 1))
    body = """
  gpu.module @kernels {
    gpu.func @kernel_index(%in0 : memref<8xi32>, %in1 : memref<8xi32>, %out : memref<NROWSx8xi32>)
      kernel attributes { $WG } {
      %t = gpu.thread_id x
      %a32 = memref.load %in0[%t] : memref<8xi32>
      %b32 = memref.load %in1[%t] : memref<8xi32>
      %a = index.casts %a32 : i32 to index
      %b = index.casts %b32 : i32 to index
      %seven = index.constant 7
      %sh = index.and %b, %seven
KOPS
      gpu.return
    }
  }

  func.func @main() {
    %in0 = memref.alloc() : memref<8xi32>
    %in1 = memref.alloc() : memref<8xi32>
    %out = memref.alloc() : memref<NROWSx8xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %va = arith.constant dense<VA> : vector<8xi32>
    %vb = arith.constant dense<VB> : vector<8xi32>
    vector.store %va, %in0[%c0] : memref<8xi32>, vector<8xi32>
    vector.store %vb, %in1[%c0] : memref<8xi32>, vector<8xi32>
    gpu.launch_func @kernels::@kernel_index
        blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%in0 : memref<8xi32>, %in1 : memref<8xi32>, %out : memref<NROWSx8xi32>)
    %p = memref.cast %out : memref<NROWSx8xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
""".replace('$WG', wg(8)).replace('KOPS', '\n'.join(stmts)).replace('NROWS', str(n + 1)) \
        .replace('VA', vec_lit(A)).replace('VB', vec_lit(B)) + decls('printMemrefI32')
    out = [[i32(fn(a, b)) for a, b in zip(A, B)] for _, fn in ops]
    out.append([int(a < b) for a, b in zip(A, B)])
    return module(body), [(out, 'i')]


@test('subview', 'memref.subview with static offsets and strides inside a kernel')
def t_subview():
    body = """
  gpu.module @kernels {
    gpu.func @kernel_sub(%in : memref<4x8xf32>, %out : memref<2x4xf32>)
      kernel attributes { $WG } {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %s = memref.subview %in[1, 1] [2, 4] [2, 2] : memref<4x8xf32> to memref<2x4xf32, strided<[16, 2], offset: 9>>
      %v = memref.load %s[%y, %x] : memref<2x4xf32, strided<[16, 2], offset: 9>>
      memref.store %v, %out[%y, %x] : memref<2x4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %in = memref.alloc() : memref<4x8xf32>
    %out = memref.alloc() : memref<2x4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %k = arith.constant 0.5 : f32
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %a = arith.muli %i, %c8 : index
        %l = arith.addi %a, %j : index
        %li = arith.index_cast %l : index to i32
        %f = arith.sitofp %li : i32 to f32
        %v = arith.mulf %f, %k : f32
        memref.store %v, %in[%i, %j] : memref<4x8xf32>
      }
    }
    gpu.launch_func @kernels::@kernel_sub
        blocks in (%c1, %c1, %c1) threads in (%c4, %c2, %c1)
        args(%in : memref<4x8xf32>, %out : memref<2x4xf32>)
    %p = memref.cast %out : memref<2x4xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
""".replace('$WG', wg(4, 2)) + decls('printMemrefF32')
    inp = [[(i * 8 + j) * 0.5 for j in range(8)] for i in range(4)]
    out = [[inp[1 + 2 * y][1 + 2 * x] for x in range(4)] for y in range(2)]
    return module(body), [(out, 'f')]


@test('math_more', 'math.log10/log1p/expm1/trunc/atan/sinh/cosh/tan and absi/ctpop, scaled by 1000 and rounded')
def t_math_more():
    rows = [
        ('%r = math.log10 %x : f32', lambda x, y: math.log10(x)),
        ('%r = math.log1p %x : f32', lambda x, y: math.log1p(x)),
        ('%r = math.expm1 %y : f32', lambda x, y: math.expm1(y)),
        ('%r = math.trunc %y : f32', lambda x, y: math.copysign(float(math.trunc(y)), y)),
        ('%r = math.atan %y : f32', lambda x, y: math.atan(y)),
        ('%r = math.sinh %y : f32', lambda x, y: math.sinh(y)),
        ('%r = math.cosh %y : f32', lambda x, y: math.cosh(y)),
        ('%r = math.tan %y : f32', lambda x, y: math.tan(y)),
    ]
    body, prints = math_module(rows, (POS, SMALL2))
    return module(body), prints


@test('cpu_runner_fills', "fillI32Buffer and fillF32Buffer1D/2D/3D, the fills of MLIR's spirv-cpu-runner test wrappers, next to fillResource")
def t_cpu_runner_fills():
    body = '''
  gpu.module @kernels {
    gpu.func @kernel_fills(%a : memref<6xi32>, %b : memref<3xf32>, %c : memref<2x3xf32>, %d : memref<2x2x2xf32>, %e : memref<6xf32>, %out : memref<6xf32>)
      kernel attributes { $WG } {
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %i2 = arith.remui %t, %c2 : index
      %i3 = arith.remui %t, %c3 : index
      %x = memref.load %a[%t] : memref<6xi32>
      %xf = arith.sitofp %x : i32 to f32
      %y = memref.load %b[%i3] : memref<3xf32>
      %z = memref.load %c[%i2, %i3] : memref<2x3xf32>
      %w = memref.load %d[%i2, %i2, %i2] : memref<2x2x2xf32>
      %v = memref.load %e[%t] : memref<6xf32>
      %s0 = arith.addf %xf, %y : f32
      %s1 = arith.addf %s0, %z : f32
      %s2 = arith.addf %s1, %w : f32
      %s3 = arith.addf %s2, %v : f32
      memref.store %s3, %out[%t] : memref<6xf32>
      %twice = arith.addi %x, %x : i32
      memref.store %twice, %a[%t] : memref<6xi32>
      gpu.return
    }
  }

  func.func @main() {
    %a = memref.alloc() : memref<6xi32>
    %b = memref.alloc() : memref<3xf32>
    %c = memref.alloc() : memref<2x3xf32>
    %d = memref.alloc() : memref<2x2x2xf32>
    %e = memref.alloc() : memref<6xf32>
    %out = memref.alloc() : memref<6xf32>
    %four = arith.constant 4 : i32
    %k1 = arith.constant 1.5 : f32
    %k2 = arith.constant 0.25 : f32
    %k3 = arith.constant 2.0 : f32
    %k4 = arith.constant 0.125 : f32
    %a1 = memref.cast %a : memref<6xi32> to memref<?xi32>
    %b1 = memref.cast %b : memref<3xf32> to memref<?xf32>
    %c1 = memref.cast %c : memref<2x3xf32> to memref<?x?xf32>
    %d1 = memref.cast %d : memref<2x2x2xf32> to memref<?x?x?xf32>
    %e1 = memref.cast %e : memref<6xf32> to memref<?xf32>
    call @fillI32Buffer(%a1, %four) : (memref<?xi32>, i32) -> ()
    call @fillF32Buffer1D(%b1, %k1) : (memref<?xf32>, f32) -> ()
    call @fillF32Buffer2D(%c1, %k2) : (memref<?x?xf32>, f32) -> ()
    call @fillF32Buffer3D(%d1, %k3) : (memref<?x?x?xf32>, f32) -> ()
    call @fillResource1DFloat(%e1, %k4) : (memref<?xf32>, f32) -> ()
    %one = arith.constant 1 : index
    %six = arith.constant 6 : index
    gpu.launch_func @kernels::@kernel_fills
        blocks in (%one, %one, %one) threads in (%six, %one, %one)
        args(%a : memref<6xi32>, %b : memref<3xf32>, %c : memref<2x3xf32>, %d : memref<2x2x2xf32>, %e : memref<6xf32>, %out : memref<6xf32>)
    %p = memref.cast %out : memref<6xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    %q = memref.cast %a : memref<6xi32> to memref<*xi32>
    call @printMemrefI32(%q) : (memref<*xi32>) -> ()
    return
  }
'''.replace('$WG', wg(6)) + decls('fillI32Buffer', 'fillF32Buffer1D', 'fillF32Buffer2D',
                                   'fillF32Buffer3D', 'fillResource1DFloat', 'printMemrefF32',
                                   'printMemrefI32')
    out = [f32(f32(f32(f32(4.0 + 1.5) + 0.25) + 2.0) + 0.125)] * 6
    return module(body), [(out, 'f'), ([8] * 6, 'i')]


def main():
    """Writes the files; with --check, only compares and exits 1 on drift."""
    import sys
    check = '--check' in sys.argv[1:]
    drift = []
    for name, doc, fn in TESTS:
        text, prints = fn()
        content = ('// %s\n// Generated by gen.py (expected output from its float32 model).\n\n' % doc
                   + check_lines(prints) + '\n\n' + text)
        path = os.path.join(HERE, name + '.mlir')
        if check:
            try:
                with open(path) as f:
                    if f.read() != content:
                        drift.append(name)
            except OSError:
                drift.append(name)
        else:
            with open(path, 'w') as f:
                f.write(content)
    if check:
        if drift:
            print('out of date (run python3 gen.py): ' + ', '.join(drift))
            sys.exit(1)
        print('%d files up to date' % len(TESTS))
    else:
        print('wrote %d files' % len(TESTS))


if __name__ == '__main__':
    main()
