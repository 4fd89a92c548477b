/*
 * kiln's CPU runner harness: runs one converted kernel over a whole grid.
 *
 * Built by kiln-cpu (cpu-runner/src/toolchain.rs) with the generated
 * header kiln_abi.h, which holds the invocation-context layout and the
 * runtime's codes exactly as kiln_core::llvm::abi defines them; linked
 * with one kernel object that defines kiln_main(ctx).
 *
 *   harness JOB RESULT
 *
 * JOB holds the launch (grid, workgroup size, subgroup size, threads,
 * memory sizes) and the bytes of every resource slot; RESULT receives the
 * kernel's run time, the out-of-bounds reports and the slots' bytes after
 * the run (formats in cpu-runner/src/job.rs).
 *
 * Workgroups are taken by worker threads from a shared counter. The
 * invocations of a workgroup run one after another on their worker; when
 * the kernel has barriers or subgroup operations they run as coroutines
 * (fibers with their own stacks, a guard page below each, switched by a
 * few instructions of assembly on x86-64 and by ucontext elsewhere): a
 * barrier or subgroup operation parks the invocation and returns to the
 * worker's scheduler, which runs every runnable invocation, then settles
 * what they wait for:
 *   - subgroup operations first: in each subgroup, the invocation that has
 *     done the fewest subgroup operations (then the lowest call site)
 *     picks the site; every invocation of the subgroup parked at that site
 *     takes part (the "active" invocations), the result is computed for
 *     each and they resume;
 *   - else, when every unfinished invocation waits at a barrier, all of
 *     them are released.
 * A cooperative-matrix multiply-add (__kiln_coop_mul_add) is one more
 * subgroup operation, which every invocation of a full subgroup must reach
 * (the harness stops otherwise): its operands' components are gathered
 * from the invocations' chunks and the result scattered back (see
 * "cooperative matrices" below).
 * This is correct for barriers in loops and branches that are uniform per
 * workgroup, as Vulkan requires.
 */
#define _GNU_SOURCE
#include "kiln_abi.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

struct kiln_ctx {
  void **slots;
  uint64_t *slot_sizes;
  uint8_t *workgroup;
  uint8_t *private_mem;
  void *rt;
  uint8_t *read_scratch;
  uint8_t *write_scratch;
  uint32_t builtins[KILN_BUILTINS_BYTES / 4];
};

_Static_assert(offsetof(struct kiln_ctx, slots) == KILN_CTX_SLOTS, "ctx layout");
_Static_assert(offsetof(struct kiln_ctx, slot_sizes) == KILN_CTX_SLOT_SIZES, "ctx layout");
_Static_assert(offsetof(struct kiln_ctx, workgroup) == KILN_CTX_WORKGROUP, "ctx layout");
_Static_assert(offsetof(struct kiln_ctx, private_mem) == KILN_CTX_PRIVATE, "ctx layout");
_Static_assert(offsetof(struct kiln_ctx, rt) == KILN_CTX_RUNTIME, "ctx layout");
_Static_assert(offsetof(struct kiln_ctx, read_scratch) == KILN_CTX_READ_SCRATCH, "ctx layout");
_Static_assert(offsetof(struct kiln_ctx, write_scratch) == KILN_CTX_WRITE_SCRATCH, "ctx layout");
_Static_assert(offsetof(struct kiln_ctx, builtins) == KILN_CTX_BUILTINS, "ctx layout");
_Static_assert(sizeof(struct kiln_ctx) == KILN_CTX_BYTES, "ctx size");

extern void kiln_main(struct kiln_ctx *ctx);

enum { ST_RUN, ST_BARRIER, ST_SG, ST_DONE };

/* A coroutine's saved context: on x86-64 a stack pointer (the callee-saved
 * registers are on its stack), elsewhere a ucontext. */
struct fctx {
#if defined(__x86_64__)
  void *sp;
#else
  ucontext_t uc;
#endif
};

struct inv {
  struct fctx ctx;
  int state;
  uint32_t sg_count;
  int32_t site, op, group_op, cluster, elem, lanes, arg;
  const uint8_t *in;
  uint8_t *out;
  /* OpCooperativeMatrixMulAddKHR: M, N, K, the element codes of A, B, C
   * and the result, the operand bits, and this invocation's components. */
  int32_t cm, cn, ck, ce[4], cflags;
  const uint8_t *ca, *cb, *cc;
};

struct worker {
  pthread_t thread;
  uint8_t *workgroup;
  uint8_t *private_mem;
  struct kiln_ctx *ctx;
  struct inv *inv;
  uint8_t *stacks;
  struct fctx sched;
  uint32_t current;
};

#define STACK_BYTES (256u * 1024u)
#define MAX_REPORTS 8

static uint32_t grid[3], local[3], sg_size, n_threads, flags;
static uint64_t wg_bytes, priv_bytes, priv_stride, scratch_bytes;
static uint32_t n_slots, n_inv, n_sg;
static void **slot_ptr;
static uint64_t *slot_size;
static uint8_t *read_scratch_all, *write_scratch_all;
static uint64_t total_groups;
static atomic_ulong next_group;
static long page_size;

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t oob_count;
static uint32_t n_reports;
static struct {
  uint32_t region;
  uint64_t offset, size;
  uint32_t group[3];
  uint32_t local_index;
} reports[MAX_REPORTS];

static __thread struct worker *self_worker;

static void die(const char *what) {
  fprintf(stderr, "kiln cpu harness: %s\n", what);
  exit(3);
}

/* ---- coroutines ---------------------------------------------------------- */

static void fiber_main(void);

#if defined(__x86_64__)
/* Saves the callee-saved registers, MXCSR and the x87 control word on the
 * current stack, stores the stack pointer in *from, switches to `to` and
 * restores what was saved there. A few instructions instead of
 * swapcontext's two signal-mask system calls. */
__attribute__((naked, noinline)) static void fctx_switch(void **from, void *to) {
  __asm__ volatile(
      "pushq %rbp\n\t"
      "pushq %rbx\n\t"
      "pushq %r12\n\t"
      "pushq %r13\n\t"
      "pushq %r14\n\t"
      "pushq %r15\n\t"
      "subq $8, %rsp\n\t"
      "stmxcsr (%rsp)\n\t"
      "fnstcw 4(%rsp)\n\t"
      "movq %rsp, (%rdi)\n\t"
      "movq %rsi, %rsp\n\t"
      "ldmxcsr (%rsp)\n\t"
      "fldcw 4(%rsp)\n\t"
      "addq $8, %rsp\n\t"
      "popq %r15\n\t"
      "popq %r14\n\t"
      "popq %r13\n\t"
      "popq %r12\n\t"
      "popq %rbx\n\t"
      "popq %rbp\n\t"
      "ret\n\t");
}

static void fiber_entry(void) {
  fiber_main();
  __builtin_unreachable();
}

/* A context that starts fiber_main on the stack [base, base + size). */
static void fctx_make(struct fctx *c, uint8_t *base, size_t size) {
  uintptr_t top = ((uintptr_t)(base + size)) & ~(uintptr_t)15;
  uint64_t *ret = (uint64_t *)(top - 16); /* 16-aligned, as a call leaves it */
  ret[0] = (uint64_t)(uintptr_t)fiber_entry;
  ret[1] = 0;
  uint64_t *sp = ret - 7;
  for (int i = 1; i < 7; i++) sp[i] = 0; /* r15 .. rbp */
  uint32_t mx;
  uint16_t cw;
  __asm__ volatile("stmxcsr %0" : "=m"(mx));
  __asm__ volatile("fnstcw %0" : "=m"(cw));
  memcpy(&sp[0], &mx, 4);
  memcpy((uint8_t *)&sp[0] + 4, &cw, 2);
  c->sp = sp;
}

static void fctx_jump(struct fctx *from, struct fctx *to) { fctx_switch(&from->sp, to->sp); }
#else
static void fctx_make(struct fctx *c, uint8_t *base, size_t size) {
  getcontext(&c->uc);
  c->uc.uc_stack.ss_sp = base;
  c->uc.uc_stack.ss_size = size;
  c->uc.uc_link = NULL;
  makecontext(&c->uc, fiber_main, 0);
}

static void fctx_jump(struct fctx *from, struct fctx *to) { swapcontext(&from->uc, &to->uc); }
#endif

/* ---- values of subgroup operations ------------------------------------ */

static size_t esize(int e) {
  switch (e) {
  case KILN_ELEM_BOOL:
  case KILN_ELEM_I8: return 1;
  case KILN_ELEM_I16:
  case KILN_ELEM_F16:
  case KILN_ELEM_BF16: return 2;
  case KILN_ELEM_I32:
  case KILN_ELEM_F32: return 4;
  default: return 8;
  }
}

static uint64_t get(const uint8_t *p, int e, int k) {
  uint64_t v = 0;
  memcpy(&v, p + (size_t)k * esize(e), esize(e));
  return v;
}

static void put(uint8_t *p, int e, int k, uint64_t v) {
  memcpy(p + (size_t)k * esize(e), &v, esize(e));
}

static int64_t sext(uint64_t v, int e) {
  unsigned bits = (unsigned)esize(e) * 8;
  if (bits == 64) return (int64_t)v;
  uint64_t m = 1ull << (bits - 1);
  v &= (m << 1) - 1;
  return (int64_t)((v ^ m) - m);
}

static uint64_t mask_width(uint64_t v, int e) {
  unsigned bits = (unsigned)esize(e) * 8;
  return bits == 64 ? v : v & ((1ull << bits) - 1);
}

static int is_float(int e) {
  return e == KILN_ELEM_F16 || e == KILN_ELEM_F32 || e == KILN_ELEM_F64;
}

#define FLOAT_OP(T, OP, A, B)                                                  \
  do {                                                                         \
    T x, y, r;                                                                 \
    memcpy(&x, &(A), sizeof x);                                                \
    memcpy(&y, &(B), sizeof y);                                                \
    switch (OP) {                                                              \
    case KILN_SG_F_ADD: r = x + y; break;                                     \
    case KILN_SG_F_MUL: r = x * y; break;                                     \
    case KILN_SG_F_MIN: r = (x != x) ? y : (y != y) ? x : (y < x ? y : x); break; \
    default: r = (x != x) ? y : (y != y) ? x : (y > x ? y : x); break;         \
    }                                                                          \
    uint64_t out = 0;                                                          \
    memcpy(&out, &r, sizeof r);                                                \
    return out;                                                                \
  } while (0)

static uint64_t combine(int op, int e, uint64_t a, uint64_t b) {
  if (is_float(e)) {
    if (e == KILN_ELEM_F16) FLOAT_OP(_Float16, op, a, b);
    if (e == KILN_ELEM_F32) FLOAT_OP(float, op, a, b);
    FLOAT_OP(double, op, a, b);
  }
  switch (op) {
  case KILN_SG_I_ADD: return mask_width(a + b, e);
  case KILN_SG_I_MUL: return mask_width(a * b, e);
  case KILN_SG_S_MIN: return sext(a, e) < sext(b, e) ? a : b;
  case KILN_SG_S_MAX: return sext(a, e) > sext(b, e) ? a : b;
  case KILN_SG_U_MIN: return a < b ? a : b;
  case KILN_SG_U_MAX: return a > b ? a : b;
  case KILN_SG_BITWISE_AND: return a & b;
  case KILN_SG_BITWISE_OR: return a | b;
  case KILN_SG_BITWISE_XOR: return a ^ b;
  case KILN_SG_LOGICAL_AND: return (a != 0) && (b != 0);
  case KILN_SG_LOGICAL_OR: return (a != 0) || (b != 0);
  default: return (a != 0) ^ (b != 0);
  }
}

static uint64_t float_bits(int e, double v) {
  uint64_t out = 0;
  if (e == KILN_ELEM_F16) {
    _Float16 h = (_Float16)v;
    memcpy(&out, &h, sizeof h);
  } else if (e == KILN_ELEM_F32) {
    float f = (float)v;
    memcpy(&out, &f, sizeof f);
  } else {
    memcpy(&out, &v, sizeof v);
  }
  return out;
}

static uint64_t identity(int op, int e) {
  unsigned bits = (unsigned)esize(e) * 8;
  uint64_t ones = bits == 64 ? ~0ull : (1ull << bits) - 1;
  switch (op) {
  case KILN_SG_F_ADD: return float_bits(e, 0.0);
  case KILN_SG_F_MUL: return float_bits(e, 1.0);
  case KILN_SG_F_MIN: return float_bits(e, INFINITY);
  case KILN_SG_F_MAX: return float_bits(e, -INFINITY);
  case KILN_SG_I_MUL:
  case KILN_SG_LOGICAL_AND: return 1;
  case KILN_SG_S_MIN: return ones >> 1;
  case KILN_SG_S_MAX: return (ones >> 1) + 1;
  case KILN_SG_U_MIN:
  case KILN_SG_BITWISE_AND: return ones;
  default: return 0;
  }
}

static int lane_bit(const uint8_t *ballot, uint32_t lane) {
  uint32_t w;
  memcpy(&w, ballot + 4 * (lane / 32), 4);
  return (w >> (lane % 32)) & 1;
}

/* Subgroup operations that need no other invocation's value. */
static int pure_op(int32_t op, int32_t group_op, const uint8_t *in, int32_t arg,
                   uint8_t *out, uint32_t lane) {
  uint32_t r = 0;
  switch (op) {
  case KILN_SG_INVERSE_BALLOT: out[0] = (uint8_t)lane_bit(in, lane); return 1;
  case KILN_SG_BALLOT_BIT_EXTRACT: out[0] = (uint8_t)lane_bit(in, (uint32_t)arg & 127); return 1;
  case KILN_SG_BALLOT_BIT_COUNT: {
    uint32_t end = sg_size;
    if (group_op == KILN_GROUP_INCLUSIVE_SCAN) end = lane + 1;
    if (group_op == KILN_GROUP_EXCLUSIVE_SCAN) end = lane;
    for (uint32_t i = 0; i < end; i++) r += (uint32_t)lane_bit(in, i);
    memcpy(out, &r, 4);
    return 1;
  }
  case KILN_SG_BALLOT_FIND_LSB:
    r = UINT32_MAX;
    for (uint32_t i = 0; i < 128; i++)
      if (lane_bit(in, i)) { r = i; break; }
    memcpy(out, &r, 4);
    return 1;
  case KILN_SG_BALLOT_FIND_MSB:
    r = UINT32_MAX;
    for (uint32_t i = 128; i-- > 0;)
      if (lane_bit(in, i)) { r = i; break; }
    memcpy(out, &r, 4);
    return 1;
  default: return 0;
  }
}

/* The source lane of a data-movement operation, or -1 for none. */
static int64_t source_lane(int32_t op, uint32_t lane, int32_t arg) {
  uint32_t a = (uint32_t)arg;
  switch (op) {
  case KILN_SG_BROADCAST:
  case KILN_SG_SHUFFLE: return a;
  case KILN_SG_SHUFFLE_XOR: return lane ^ a;
  case KILN_SG_SHUFFLE_UP: return a <= lane ? (int64_t)(lane - a) : -1;
  case KILN_SG_SHUFFLE_DOWN: return (uint64_t)lane + a < sg_size ? (int64_t)(lane + a) : -1;
  case KILN_SG_QUAD_BROADCAST: return (lane & ~3u) | (a & 3u);
  case KILN_SG_QUAD_SWAP: return lane ^ (a == 0 ? 1u : a == 1 ? 2u : 3u);
  default: return -1;
  }
}

/* ---- cooperative matrices ----------------------------------------------
 *
 * A Subgroup-scope R x C matrix is spread over the S = sg_size invocations
 * of a subgroup in row-major chunks of L = ceil(R * C / S) components:
 * invocation (lane) l holds elements l * L .. l * L + L - 1 of the matrix
 * in row-major order (kiln_core's llvm/convert/coop.rs, which loads,
 * stores and indexes them, documents the same). */

static double coop_get_f(const uint8_t *p, int e, size_t i) {
  switch (e) {
  case KILN_ELEM_F16: {
    _Float16 h;
    memcpy(&h, p + 2 * i, 2);
    return (double)h;
  }
  case KILN_ELEM_BF16: {
    uint16_t b;
    uint32_t u;
    float f;
    memcpy(&b, p + 2 * i, 2);
    u = (uint32_t)b << 16;
    memcpy(&f, &u, 4);
    return (double)f;
  }
  case KILN_ELEM_F32: {
    float f;
    memcpy(&f, p + 4 * i, 4);
    return (double)f;
  }
  default: {
    double d;
    memcpy(&d, p + 8 * i, 8);
    return d;
  }
  }
}

/* bfloat16 nearest to v (ties to even): v is first narrowed to float with
 * round-to-odd (exact for the second rounding, float having more than
 * 8 + 2 significand bits), then rounded to 8 significand bits. */
static uint16_t bf16_bits(double v) {
  float f = (float)v;
  uint32_t u;
  memcpy(&u, &f, 4);
  if (v != v) return (uint16_t)((u >> 16) | 0x40);
  if ((double)f != v && !isinf(f)) {
    /* Truncate toward zero, then make the last bit odd. */
    if (fabs((double)f) > fabs(v)) u -= 1;
    u |= 1;
  }
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

static void coop_put_f(uint8_t *p, int e, size_t i, double v) {
  switch (e) {
  case KILN_ELEM_F16: {
    _Float16 h = (_Float16)v;
    memcpy(p + 2 * i, &h, 2);
    break;
  }
  case KILN_ELEM_BF16: {
    uint16_t b = bf16_bits(v);
    memcpy(p + 2 * i, &b, 2);
    break;
  }
  case KILN_ELEM_F32: {
    float f = (float)v;
    memcpy(p + 4 * i, &f, 4);
    break;
  }
  default: memcpy(p + 8 * i, &v, 8); break;
  }
}

/* Component i of an integer matrix, sign- or zero-extended. */
static __int128 coop_get_i(const uint8_t *p, int e, size_t i, int is_signed) {
  uint64_t v = get(p, e, (int)i);
  if (is_signed) return (__int128)sext(v, e);
  return (__int128)mask_width(v, e);
}

/* Stores v as component i: its low bits, or clamped to the type's signed
 * or unsigned range when saturating. */
static void coop_put_i(uint8_t *p, int e, size_t i, __int128 v, int saturate, int is_signed) {
  unsigned bits = (unsigned)esize(e) * 8;
  if (saturate) {
    __int128 lo, hi;
    if (is_signed) {
      hi = ((__int128)1 << (bits - 1)) - 1;
      lo = -hi - 1;
    } else {
      hi = ((__int128)1 << bits) - 1;
      lo = 0;
    }
    if (v < lo) v = lo;
    if (v > hi) v = hi;
  }
  put(p, e, (int)i, mask_width((uint64_t)v, e));
}

/* OpCooperativeMatrixMulAddKHR for the subgroup whose invocations are
 * `act` (all of them, in lane order): gathers A (M x K), B (K x N) and
 * C (M x N) from their chunks, computes A x B + C and scatters the result.
 * Floats: products and sums in double, C first then k = 0 .. K - 1, one
 * rounding to the result type. Integers: A, B, C sign-extended where the
 * operands say Matrix{A,B,C}SignedComponents, else zero-extended; the
 * exact sum wrapped to the result's width, or clamped to its range (signed
 * with MatrixResultSignedComponents) with SaturatingAccumulation. */
static void coop_mul_add(struct worker *w, const uint32_t *act) {
  struct inv *iv = w->inv;
  const struct inv *p0 = &iv[act[0]];
  size_t m = (size_t)p0->cm, n = (size_t)p0->cn, k = (size_t)p0->ck;
  size_t la = (m * k + sg_size - 1) / sg_size, lb = (k * n + sg_size - 1) / sg_size,
         lc = (m * n + sg_size - 1) / sg_size;
  int ea = p0->ce[0], eb = p0->ce[1], ec = p0->ce[2], er = p0->ce[3], fl = p0->cflags;
  if (is_float(er) || er == KILN_ELEM_BF16) {
    for (size_t r = 0; r < m; r++)
      for (size_t c = 0; c < n; c++) {
        size_t ic = r * n + c;
        double sum = coop_get_f(iv[act[ic / lc]].cc, ec, ic % lc);
        for (size_t q = 0; q < k; q++) {
          size_t ia = r * k + q, ib = q * n + c;
          sum += coop_get_f(iv[act[ia / la]].ca, ea, ia % la) *
                 coop_get_f(iv[act[ib / lb]].cb, eb, ib % lb);
        }
        coop_put_f(iv[act[ic / lc]].out, er, ic % lc, sum);
      }
  } else {
    for (size_t r = 0; r < m; r++)
      for (size_t c = 0; c < n; c++) {
        size_t ic = r * n + c;
        __int128 sum = 0;
        for (size_t q = 0; q < k; q++) {
          size_t ia = r * k + q, ib = q * n + c;
          sum += coop_get_i(iv[act[ia / la]].ca, ea, ia % la, fl & 0x1) *
                 coop_get_i(iv[act[ib / lb]].cb, eb, ib % lb, fl & 0x2);
        }
        sum += coop_get_i(iv[act[ic / lc]].cc, ec, ic % lc, fl & 0x4);
        coop_put_i(iv[act[ic / lc]].out, er, ic % lc, sum, fl & 0x10, fl & 0x8);
      }
  }
}

/* Computes one subgroup operation for its participants `act` (indices into
 * the worker's invocations, ascending); `first` is the subgroup's first
 * invocation and `count` its number of invocations. */
static void compute(struct worker *w, uint32_t first, uint32_t count, const uint32_t *act,
                    uint32_t na) {
  struct inv *iv = w->inv;
  const struct inv *p0 = &iv[act[0]];
  int32_t op = p0->op, e = p0->elem, lanes = p0->lanes;
  if (op == KILN_SG_COOP_MUL_ADD) {
    if (count != sg_size)
      die("a cooperative matrix in a subgroup with fewer invocations than the subgroup size");
    if (na != count)
      die("OpCooperativeMatrixMulAddKHR reached by only some invocations of a subgroup");
    coop_mul_add(w, act);
    return;
  }
  for (uint32_t j = 0; j < na; j++) {
    struct inv *me = &iv[act[j]];
    uint32_t lane = act[j] - first;
    switch (op) {
    case KILN_SG_BARRIER: break;
    case KILN_SG_ELECT: me->out[0] = j == 0; break;
    case KILN_SG_ALL:
    case KILN_SG_ANY: {
      int all = 1, any = 0;
      for (uint32_t t = 0; t < na; t++)
        for (int k = 0; k < lanes; k++) {
          int b = iv[act[t]].in[k] != 0;
          all &= b;
          any |= b;
        }
      me->out[0] = (uint8_t)(op == KILN_SG_ALL ? all : any);
      break;
    }
    case KILN_SG_ALL_EQUAL: {
      int eq = 1;
      size_t n = esize(e) * (size_t)lanes;
      for (uint32_t t = 1; t < na; t++) eq &= memcmp(iv[act[t]].in, p0->in, n) == 0;
      me->out[0] = (uint8_t)eq;
      break;
    }
    case KILN_SG_BROADCAST_FIRST:
      memcpy(me->out, p0->in, esize(e) * (size_t)lanes);
      break;
    case KILN_SG_BALLOT: {
      uint32_t words[4] = {0, 0, 0, 0};
      for (uint32_t t = 0; t < na; t++) {
        uint32_t l = act[t] - first;
        if (iv[act[t]].in[0]) words[l / 32] |= 1u << (l % 32);
      }
      memcpy(me->out, words, 16);
      break;
    }
    case KILN_SG_BROADCAST:
    case KILN_SG_SHUFFLE:
    case KILN_SG_SHUFFLE_XOR:
    case KILN_SG_SHUFFLE_UP:
    case KILN_SG_SHUFFLE_DOWN:
    case KILN_SG_QUAD_BROADCAST:
    case KILN_SG_QUAD_SWAP: {
      int64_t src = source_lane(op, lane, me->arg);
      const struct inv *from = me;
      for (uint32_t t = 0; t < na; t++)
        if ((int64_t)(act[t] - first) == src) from = &iv[act[t]];
      memcpy(me->out, from->in, esize(e) * (size_t)lanes);
      break;
    }
    default: {
      /* Arithmetic: reduce, scans, clustered reduce over the participants. */
      uint32_t cluster = p0->cluster > 0 ? (uint32_t)p0->cluster : sg_size;
      for (int k = 0; k < lanes; k++) {
        uint64_t acc = identity(op, e);
        int started = 0;
        for (uint32_t t = 0; t < na; t++) {
          uint32_t l = act[t] - first;
          int take;
          switch (me->group_op) {
          case KILN_GROUP_INCLUSIVE_SCAN: take = l <= lane; break;
          case KILN_GROUP_EXCLUSIVE_SCAN: take = l < lane; break;
          case KILN_GROUP_CLUSTERED_REDUCE: take = l / cluster == lane / cluster; break;
          default: take = 1; break;
          }
          if (!take) continue;
          uint64_t v = get(iv[act[t]].in, e, k);
          acc = started ? combine(op, e, acc, v) : v;
          started = 1;
        }
        put(me->out, e, k, acc);
      }
      break;
    }
    }
  }
}

/* ---- the runtime the kernel calls -------------------------------------- */

void __kiln_barrier(struct kiln_ctx *c) {
  struct inv *v = c->rt;
  if (!v) return; /* one invocation at a time: nothing to wait for */
  v->state = ST_BARRIER;
  fctx_jump(&v->ctx, &self_worker->sched);
}

void __kiln_subgroup(struct kiln_ctx *c, int32_t site, int32_t op, int32_t group_op,
                     int32_t cluster, int32_t elem, int32_t lanes, const uint8_t *in,
                     int32_t arg, uint8_t *out) {
  uint32_t lane = c->builtins[KILN_BI_SUBGROUP_LOCAL_INVOCATION_ID];
  if (pure_op(op, group_op, in, arg, out, lane)) return;
  struct inv *v = c->rt;
  if (!v) die("a subgroup operation ran outside a fiber");
  v->site = site;
  v->op = op;
  v->group_op = group_op;
  v->cluster = cluster;
  v->elem = elem;
  v->lanes = lanes;
  v->in = in;
  v->arg = arg;
  v->out = out;
  v->state = ST_SG;
  fctx_jump(&v->ctx, &self_worker->sched);
}

void __kiln_coop_mul_add(struct kiln_ctx *c, int32_t site, int32_t m, int32_t n, int32_t k,
                         int32_t ea, int32_t eb, int32_t ec, int32_t er, int32_t flags,
                         const uint8_t *a, const uint8_t *b, const uint8_t *cm, uint8_t *out) {
  struct inv *v = c->rt;
  if (!v) die("a cooperative-matrix multiply-add ran outside a fiber");
  v->site = site;
  v->op = KILN_SG_COOP_MUL_ADD;
  v->cm = m;
  v->cn = n;
  v->ck = k;
  v->ce[0] = ea;
  v->ce[1] = eb;
  v->ce[2] = ec;
  v->ce[3] = er;
  v->cflags = flags;
  v->ca = a;
  v->cb = b;
  v->cc = cm;
  v->out = out;
  v->state = ST_SG;
  fctx_jump(&v->ctx, &self_worker->sched);
}

static void report(struct kiln_ctx *c, uint32_t region, uint64_t offset, uint64_t size) {
  pthread_mutex_lock(&report_lock);
  oob_count++;
  if (n_reports < MAX_REPORTS) {
    reports[n_reports].region = region;
    reports[n_reports].offset = offset;
    reports[n_reports].size = size;
    for (int d = 0; d < 3; d++) reports[n_reports].group[d] = c->builtins[KILN_BI_WORKGROUP_ID + d];
    reports[n_reports].local_index = c->builtins[KILN_BI_LOCAL_INVOCATION_INDEX];
    n_reports++;
  }
  pthread_mutex_unlock(&report_lock);
}

void __kiln_oob(struct kiln_ctx *c, int32_t region, int64_t offset, int64_t size) {
  report(c, (uint32_t)region, (uint64_t)offset, (uint64_t)size);
}

void *__kiln_check_ptr(struct kiln_ctx *c, uint8_t *p, int64_t size, int32_t store) {
  uintptr_t a = (uintptr_t)p;
  for (uint32_t s = 0; s < n_slots; s++) {
    uintptr_t b = (uintptr_t)slot_ptr[s];
    if (a >= b && a - b <= slot_size[s] && slot_size[s] - (a - b) >= (uint64_t)size) return p;
  }
  uintptr_t wg = (uintptr_t)c->workgroup;
  if (a >= wg && a - wg <= wg_bytes && wg_bytes - (a - wg) >= (uint64_t)size) return p;
  report(c, KILN_REGION_UNKNOWN, (uint64_t)a, (uint64_t)size);
  return store ? c->write_scratch : c->read_scratch;
}

/* ---- workgroups --------------------------------------------------------- */

static void set_mask(uint32_t *m, uint32_t lane, int which) {
  for (uint32_t i = 0; i < 4; i++) m[i] = 0;
  for (uint32_t l = 0; l < sg_size && l < 128; l++) {
    int on = which == 0 ? l == lane : which == 1 ? l >= lane : which == 2 ? l > lane
           : which == 3 ? l <= lane : l < lane;
    if (on) m[l / 32] |= 1u << (l % 32);
  }
}

/* The built-ins that do not depend on the workgroup: set once per worker. */
static void set_static_builtins(struct kiln_ctx *c, uint32_t i) {
  uint32_t l[3] = {i % local[0], (i / local[0]) % local[1], i / (local[0] * local[1])};
  uint32_t *b = c->builtins;
  for (int d = 0; d < 3; d++) {
    b[KILN_BI_LOCAL_INVOCATION_ID + d] = l[d];
    b[KILN_BI_NUM_WORKGROUPS + d] = grid[d];
    b[KILN_BI_WORKGROUP_SIZE + d] = local[d];
  }
  b[KILN_BI_LOCAL_INVOCATION_INDEX] = i;
  b[KILN_BI_SUBGROUP_SIZE] = sg_size;
  b[KILN_BI_SUBGROUP_ID] = i / sg_size;
  b[KILN_BI_SUBGROUP_LOCAL_INVOCATION_ID] = i % sg_size;
  b[KILN_BI_NUM_SUBGROUPS] = n_sg;
  uint32_t lane = i % sg_size;
  set_mask(&b[KILN_BI_SUBGROUP_EQ_MASK], lane, 0);
  set_mask(&b[KILN_BI_SUBGROUP_GE_MASK], lane, 1);
  set_mask(&b[KILN_BI_SUBGROUP_GT_MASK], lane, 2);
  set_mask(&b[KILN_BI_SUBGROUP_LE_MASK], lane, 3);
  set_mask(&b[KILN_BI_SUBGROUP_LT_MASK], lane, 4);
}

/* The built-ins of workgroup `g`. */
static void set_group_builtins(struct kiln_ctx *c, const uint32_t g[3]) {
  uint32_t *b = c->builtins;
  for (int d = 0; d < 3; d++) {
    b[KILN_BI_WORKGROUP_ID + d] = g[d];
    b[KILN_BI_GLOBAL_INVOCATION_ID + d] = g[d] * local[d] + b[KILN_BI_LOCAL_INVOCATION_ID + d];
  }
}

static void fiber_main(void) {
  struct worker *w = self_worker;
  uint32_t i = w->current;
  kiln_main(&w->ctx[i]);
  w->inv[i].state = ST_DONE;
  fctx_jump(&w->inv[i].ctx, &w->sched);
}

static void resolve_subgroups(struct worker *w) {
  uint32_t act[128];
  for (uint32_t s = 0; s < n_sg; s++) {
    uint32_t first = s * sg_size, end = first + sg_size < n_inv ? first + sg_size : n_inv;
    int64_t best = -1;
    for (uint32_t i = first; i < end; i++) {
      struct inv *v = &w->inv[i];
      if (v->state != ST_SG) continue;
      if (best < 0 || v->sg_count < w->inv[best].sg_count ||
          (v->sg_count == w->inv[best].sg_count && v->site < w->inv[best].site))
        best = i;
    }
    if (best < 0) continue;
    int32_t site = w->inv[best].site;
    uint32_t na = 0;
    for (uint32_t i = first; i < end; i++)
      if (w->inv[i].state == ST_SG && w->inv[i].site == site) act[na++] = i;
    compute(w, first, end - first, act, na);
    for (uint32_t t = 0; t < na; t++) {
      w->inv[act[t]].state = ST_RUN;
      w->inv[act[t]].sg_count++;
    }
  }
}

static void run_fibers(struct worker *w) {
  for (uint32_t i = 0; i < n_inv; i++) {
    struct inv *v = &w->inv[i];
    fctx_make(&v->ctx, w->stacks + (size_t)i * STACK_BYTES + (size_t)page_size,
              STACK_BYTES - (size_t)page_size);
    v->state = ST_RUN;
    v->sg_count = 0;
  }
  for (;;) {
    for (uint32_t i = 0; i < n_inv; i++) {
      if (w->inv[i].state != ST_RUN) continue;
      w->current = i;
      fctx_jump(&w->sched, &w->inv[i].ctx);
    }
    int any_sg = 0, any_barrier = 0;
    for (uint32_t i = 0; i < n_inv; i++) {
      any_sg |= w->inv[i].state == ST_SG;
      any_barrier |= w->inv[i].state == ST_BARRIER;
    }
    if (any_sg) {
      resolve_subgroups(w);
    } else if (any_barrier) {
      for (uint32_t i = 0; i < n_inv; i++)
        if (w->inv[i].state == ST_BARRIER) w->inv[i].state = ST_RUN;
    } else {
      return;
    }
  }
}

static void run_group(struct worker *w, uint64_t gi) {
  uint32_t g[3] = {(uint32_t)(gi % grid[0]), (uint32_t)((gi / grid[0]) % grid[1]),
                   (uint32_t)(gi / ((uint64_t)grid[0] * grid[1]))};
  if (wg_bytes) memset(w->workgroup, 0, wg_bytes);
  if (priv_bytes) memset(w->private_mem, 0, priv_stride * n_inv);
  for (uint32_t i = 0; i < n_inv; i++) set_group_builtins(&w->ctx[i], g);
  if (flags & KILN_FLAG_FIBERS) {
    run_fibers(w);
  } else {
    for (uint32_t i = 0; i < n_inv; i++) kiln_main(&w->ctx[i]);
  }
}

static void *worker_main(void *arg) {
  struct worker *w = arg;
  self_worker = w;
  for (;;) {
    uint64_t gi = atomic_fetch_add(&next_group, 1);
    if (gi >= total_groups) break;
    run_group(w, gi);
  }
  return NULL;
}

static void *zalloc(uint64_t n) {
  void *p = calloc(1, n ? (size_t)n : 1);
  if (!p) die("out of memory");
  return p;
}

static void setup_worker(struct worker *w, uint32_t index) {
  w->workgroup = zalloc(wg_bytes + 64);
  w->private_mem = zalloc(priv_stride * n_inv + 64);
  w->ctx = zalloc(sizeof(struct kiln_ctx) * n_inv);
  w->inv = zalloc(sizeof(struct inv) * n_inv);
  w->stacks = NULL;
  if (flags & KILN_FLAG_FIBERS) {
    size_t bytes = (size_t)STACK_BYTES * n_inv;
    w->stacks = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (w->stacks == MAP_FAILED) die("cannot map fiber stacks");
    for (uint32_t i = 0; i < n_inv; i++)
      mprotect(w->stacks + (size_t)i * STACK_BYTES, (size_t)page_size, PROT_NONE);
  }
  for (uint32_t i = 0; i < n_inv; i++) {
    struct kiln_ctx *c = &w->ctx[i];
    c->slots = slot_ptr;
    c->slot_sizes = slot_size;
    c->workgroup = w->workgroup;
    c->private_mem = w->private_mem + priv_stride * i;
    c->rt = (flags & KILN_FLAG_FIBERS) ? &w->inv[i] : NULL;
    c->read_scratch = read_scratch_all;
    c->write_scratch = write_scratch_all + scratch_bytes * index;
    set_static_builtins(c, i);
  }
}

/* ---- job and result files ------------------------------------------------ */

static uint8_t *job;
static size_t job_len, job_at;

static void take(void *dst, size_t n) {
  if (job_len - job_at < n) die("truncated job file");
  memcpy(dst, job + job_at, n);
  job_at += n;
}

static uint32_t take32(void) {
  uint32_t v;
  take(&v, 4);
  return v;
}

static uint64_t take64(void) {
  uint64_t v;
  take(&v, 8);
  return v;
}

static void out_bytes(FILE *f, const void *p, size_t n) {
  if (n && fwrite(p, 1, n, f) != n) die("cannot write the result");
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s JOB RESULT\n", argv[0]);
    return 2;
  }
  page_size = sysconf(_SC_PAGESIZE);
  FILE *f = fopen(argv[1], "rb");
  if (!f) die("cannot open the job file");
  fseek(f, 0, SEEK_END);
  job_len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  job = malloc(job_len ? job_len : 1);
  if (!job || fread(job, 1, job_len, f) != job_len) die("cannot read the job file");
  fclose(f);

  char magic[8];
  take(magic, 8);
  if (memcmp(magic, "KILNJOB1", 8) != 0) die("not a job file");
  for (int d = 0; d < 3; d++) grid[d] = take32();
  for (int d = 0; d < 3; d++) local[d] = take32();
  sg_size = take32();
  n_threads = take32();
  flags = take32();
  wg_bytes = take64();
  priv_bytes = take64();
  scratch_bytes = take64();
  n_slots = take32();
  if (sg_size == 0 || sg_size > 128) die("the subgroup size must be in 1..=128");
  for (int d = 0; d < 3; d++)
    if (grid[d] == 0 || local[d] == 0) die("empty grid or workgroup");
  slot_ptr = zalloc(sizeof(void *) * (n_slots + 1));
  slot_size = zalloc(sizeof(uint64_t) * (n_slots + 1));
  for (uint32_t s = 0; s < n_slots; s++) {
    slot_size[s] = take64();
    slot_ptr[s] = zalloc(slot_size[s] + 16);
    take(slot_ptr[s], (size_t)slot_size[s]);
  }
  n_inv = local[0] * local[1] * local[2];
  n_sg = (n_inv + sg_size - 1) / sg_size;
  priv_stride = (priv_bytes + 15) / 16 * 16;
  total_groups = (uint64_t)grid[0] * grid[1] * grid[2];
  if (n_threads == 0) n_threads = 1;
  if (n_threads > total_groups) n_threads = (uint32_t)total_groups;
  if (scratch_bytes < 16) scratch_bytes = 16;
  read_scratch_all = zalloc(scratch_bytes);
  write_scratch_all = zalloc(scratch_bytes * n_threads);

  struct worker *workers = zalloc(sizeof(struct worker) * n_threads);
  for (uint32_t t = 0; t < n_threads; t++) setup_worker(&workers[t], t);

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (n_threads == 1) {
    worker_main(&workers[0]);
  } else {
    for (uint32_t t = 0; t < n_threads; t++)
      if (pthread_create(&workers[t].thread, NULL, worker_main, &workers[t]) != 0)
        die("cannot start a worker thread");
    for (uint32_t t = 0; t < n_threads; t++) pthread_join(workers[t].thread, NULL);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  uint64_t nanos = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ull +
                   (uint64_t)(t1.tv_nsec - t0.tv_nsec);

  FILE *r = fopen(argv[2], "wb");
  if (!r) die("cannot create the result file");
  out_bytes(r, "KILNRES1", 8);
  out_bytes(r, &nanos, 8);
  out_bytes(r, &oob_count, 8);
  out_bytes(r, &n_reports, 4);
  for (uint32_t i = 0; i < n_reports; i++) {
    out_bytes(r, &reports[i].region, 4);
    out_bytes(r, &reports[i].offset, 8);
    out_bytes(r, &reports[i].size, 8);
    out_bytes(r, reports[i].group, 12);
    out_bytes(r, &reports[i].local_index, 4);
  }
  out_bytes(r, &n_slots, 4);
  for (uint32_t s = 0; s < n_slots; s++) {
    out_bytes(r, &slot_size[s], 8);
    out_bytes(r, slot_ptr[s], (size_t)slot_size[s]);
  }
  if (fclose(r) != 0) die("cannot write the result file");
  return 0;
}
