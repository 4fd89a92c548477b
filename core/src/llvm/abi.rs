//! The kernel ABI: how converted code reaches its invocation's state when
//! a CPU runner executes a whole grid ([`super::Abi::Kernel`]).
//!
//! Every converted function takes one extra first parameter, `ptr %ctx`,
//! the **invocation context**, and passes it on to the functions it calls.
//! The context is a block of bytes laid out as the `CTX_*` offsets below
//! say (the runner's C harness declares the same layout and checks it with
//! `_Static_assert`s built from these constants):
//!
//! | offset | field |
//! | --- | --- |
//! | [`CTX_SLOTS`] | `ptr` to the table of resource base pointers (one per [`SlotInfo`]) |
//! | [`CTX_SLOT_SIZES`] | `ptr` to the table of their sizes in bytes (`i64`) |
//! | [`CTX_WORKGROUP`] | `ptr` to the workgroup's `Workgroup` memory |
//! | [`CTX_PRIVATE`] | `ptr` to this invocation's `Private` memory |
//! | [`CTX_RUNTIME`] | `ptr` the harness keeps for itself (fiber, workgroup) |
//! | [`CTX_READ_SCRATCH`] | `ptr` to zeroed bytes an out-of-bounds load reads |
//! | [`CTX_WRITE_SCRATCH`] | `ptr` to bytes an out-of-bounds store writes |
//! | [`CTX_BUILTINS`] | the built-in values ([`builtin_offset`]) |
//!
//! Where each storage class lives:
//! * `StorageBuffer`, `Uniform`, `PushConstant` variables are **slots**:
//!   `spirv.mlir.addressof` loads the slot's base pointer from the table;
//!   the host binds buffers by descriptor set and binding and the push
//!   constants to their slots. A variable that is an array of `N` blocks
//!   (an array of descriptors: kiln binds a buffer larger than
//!   `maxStorageBufferRange` so, one chunk per descriptor) takes `N`
//!   consecutive slots, element `k` in the `k`-th ([`SlotInfo::element`]);
//!   an access chain into it must select the element with a constant
//!   (kiln's split accesses branch per chunk), which picks that slot.
//! * `Workgroup` variables sit at fixed offsets in the workgroup block
//!   ([`KernelInfo::workgroup_bytes`]), shared by the invocations of one
//!   workgroup; `Private` variables at fixed offsets in a per-invocation
//!   block ([`KernelInfo::private_bytes`]), which the entry wrapper
//!   initializes.
//! * `Input` variables decorated `BuiltIn` read the context's built-in area.
//! * `Function` variables are `alloca`s.
//!
//! Bounds: a load, store or atomic through a pointer derived (by access
//! chains with a non-constant index) from a slot, a `Workgroup` or
//! `Private` variable or a function variable is checked against that
//! memory's size; when it does not fit, the access goes to the scratch
//! bytes instead and [`RT_OOB`] is called with the region ([`region_id`]),
//! the byte offset and the access size. Pointers of unknown origin
//! (function parameters, selects) into buffer or workgroup memory are
//! checked by [`RT_CHECK_PTR`] at run time. Integer division and remainder
//! by zero (and `INT_MIN / -1`) divide by one instead, as a GPU does not
//! trap.
//!
//! Runtime functions the harness provides (all take the context first):
//! * [`RT_BARRIER`]`(ctx)`: a workgroup `OpControlBarrier`;
//! * [`RT_SUBGROUP`]`(ctx, i32 site, i32 op, i32 group_op, i32 cluster,
//!   i32 elem, i32 lanes, ptr in, i32 arg, ptr out)`: one subgroup
//!   operation ([`SubgroupOp`], [`ElemCode`]); `in` holds this invocation's
//!   value (`lanes` elements, booleans as bytes), `out` receives the result;
//!   `site` numbers the call sites of the module, so the harness knows which
//!   invocations meet at the same operation;
//! * [`RT_COOP_MUL_ADD`]`(ctx, i32 site, i32 m, i32 n, i32 k, i32 a_elem,
//!   i32 b_elem, i32 c_elem, i32 result_elem, i32 operands, ptr a, ptr b,
//!   ptr c, ptr out)`: an `OpCooperativeMatrixMulAddKHR` at subgroup scope,
//!   a subgroup collective like [`RT_SUBGROUP`] ([`SubgroupOp::CoopMulAdd`]):
//!   `a`, `b`, `c` hold this invocation's components of the `m` x `k`,
//!   `k` x `n` and `m` x `n` operands ([`ElemCode`]s, `operands` the
//!   `Cooperative Matrix Operands` bits), `out` receives its components of
//!   the result; the components are spread over the subgroup as
//!   `convert/coop.rs` describes;
//! * [`RT_OOB`]`(ctx, i32 region, i64 offset, i64 size)`;
//! * [`RT_CHECK_PTR`]`(ctx, ptr p, i64 size, i32 store) -> ptr`: `p` when
//!   it lies inside a bound buffer or the workgroup block, else a scratch
//!   pointer (after reporting).
//!
//! In the MLIR ABI the same runtime functions are called where an op needs
//! them (barriers, subgroup operations), with a null context.

use crate::grammar::{BuiltIn, StorageClass};

/// Offset of the slot-pointer table pointer.
pub const CTX_SLOTS: u64 = 0;
/// Offset of the slot-size table pointer.
pub const CTX_SLOT_SIZES: u64 = 8;
/// Offset of the workgroup-memory pointer.
pub const CTX_WORKGROUP: u64 = 16;
/// Offset of the private-memory pointer.
pub const CTX_PRIVATE: u64 = 24;
/// Offset of the harness's own pointer.
pub const CTX_RUNTIME: u64 = 32;
/// Offset of the read-scratch pointer.
pub const CTX_READ_SCRATCH: u64 = 40;
/// Offset of the write-scratch pointer.
pub const CTX_WRITE_SCRATCH: u64 = 48;
/// Offset of the built-in values.
pub const CTX_BUILTINS: u64 = 56;
/// Size of the built-in area.
pub const BUILTINS_BYTES: u64 = 160;
/// Size of the whole context.
pub const CTX_BYTES: u64 = CTX_BUILTINS + BUILTINS_BYTES;

/// The workgroup barrier.
pub const RT_BARRIER: &str = "__kiln_barrier";
/// Subgroup operations.
pub const RT_SUBGROUP: &str = "__kiln_subgroup";
/// Out-of-bounds report.
pub const RT_OOB: &str = "__kiln_oob";
/// The runtime's cooperative-matrix multiply-add (see the module docs).
pub const RT_COOP_MUL_ADD: &str = "__kiln_coop_mul_add";
/// Run-time pointer check.
pub const RT_CHECK_PTR: &str = "__kiln_check_ptr";
/// Prefix of the entry wrappers: `__kiln_entry_<function>`.
pub const ENTRY_PREFIX: &str = "__kiln_entry_";

/// Built-ins the context holds, with their offsets inside the built-in
/// area: `(built-in, offset, number of u32 words)`.
pub const BUILTINS: [(BuiltIn, u64, u32); 15] = [
    (BuiltIn::GlobalInvocationId, 0, 3),
    (BuiltIn::LocalInvocationId, 12, 3),
    (BuiltIn::WorkgroupId, 24, 3),
    (BuiltIn::NumWorkgroups, 36, 3),
    (BuiltIn::WorkgroupSize, 48, 3),
    (BuiltIn::LocalInvocationIndex, 60, 1),
    (BuiltIn::SubgroupSize, 64, 1),
    (BuiltIn::SubgroupId, 68, 1),
    (BuiltIn::SubgroupLocalInvocationId, 72, 1),
    (BuiltIn::NumSubgroups, 76, 1),
    (BuiltIn::SubgroupEqMask, 80, 4),
    (BuiltIn::SubgroupGeMask, 96, 4),
    (BuiltIn::SubgroupGtMask, 112, 4),
    (BuiltIn::SubgroupLeMask, 128, 4),
    (BuiltIn::SubgroupLtMask, 144, 4),
];

/// The offset of `b` from the start of the context, and its size in words.
pub fn builtin_offset(b: BuiltIn) -> Option<(u64, u32)> {
    BUILTINS
        .iter()
        .find(|(x, _, _)| *x == b)
        .map(|&(_, off, words)| (CTX_BUILTINS + off, words))
}

/// Region ids of out-of-bounds reports: buffers are their slot index;
/// other memory is tagged in the high bits with the variable's index in
/// [`KernelInfo::workgroup_vars`] / [`KernelInfo::private_vars`] (function
/// variables report [`REGION_FUNCTION`]).
pub const REGION_WORKGROUP: u32 = 0x1_0000;
/// See [`REGION_WORKGROUP`].
pub const REGION_PRIVATE: u32 = 0x2_0000;
/// See [`REGION_WORKGROUP`].
pub const REGION_FUNCTION: u32 = 0x3_0000;
/// What [`RT_CHECK_PTR`] reports as the region of a pointer in no bound memory.
pub const REGION_UNKNOWN: u32 = 0x4_0000;

/// The region id of memory kind `tag` ([`REGION_WORKGROUP`], ...) and index `i`.
pub fn region_id(tag: u32, i: u32) -> u32 {
    tag | (i & 0xffff)
}

/// Subgroup operation codes passed to [`RT_SUBGROUP`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[allow(missing_docs, reason = "named after the SPIR-V instructions")]
pub enum SubgroupOp {
    Elect = 1,
    All = 2,
    Any = 3,
    AllEqual = 4,
    Broadcast = 5,
    BroadcastFirst = 6,
    Ballot = 7,
    InverseBallot = 8,
    BallotBitExtract = 9,
    BallotBitCount = 10,
    BallotFindLsb = 11,
    BallotFindMsb = 12,
    Shuffle = 13,
    ShuffleXor = 14,
    ShuffleUp = 15,
    ShuffleDown = 16,
    IAdd = 20,
    FAdd = 21,
    IMul = 22,
    FMul = 23,
    SMin = 24,
    UMin = 25,
    FMin = 26,
    SMax = 27,
    UMax = 28,
    FMax = 29,
    BitwiseAnd = 30,
    BitwiseOr = 31,
    BitwiseXor = 32,
    LogicalAnd = 33,
    LogicalOr = 34,
    LogicalXor = 35,
    QuadBroadcast = 40,
    QuadSwap = 41,
    /// A subgroup-scope `OpControlBarrier`.
    Barrier = 50,
    /// `OpCooperativeMatrixMulAddKHR` ([`RT_COOP_MUL_ADD`]).
    CoopMulAdd = 60,
}

impl SubgroupOp {
    /// Every code, for the harness's table.
    pub const ALL: [SubgroupOp; 36] = [
        SubgroupOp::Elect,
        SubgroupOp::All,
        SubgroupOp::Any,
        SubgroupOp::AllEqual,
        SubgroupOp::Broadcast,
        SubgroupOp::BroadcastFirst,
        SubgroupOp::Ballot,
        SubgroupOp::InverseBallot,
        SubgroupOp::BallotBitExtract,
        SubgroupOp::BallotBitCount,
        SubgroupOp::BallotFindLsb,
        SubgroupOp::BallotFindMsb,
        SubgroupOp::Shuffle,
        SubgroupOp::ShuffleXor,
        SubgroupOp::ShuffleUp,
        SubgroupOp::ShuffleDown,
        SubgroupOp::IAdd,
        SubgroupOp::FAdd,
        SubgroupOp::IMul,
        SubgroupOp::FMul,
        SubgroupOp::SMin,
        SubgroupOp::UMin,
        SubgroupOp::FMin,
        SubgroupOp::SMax,
        SubgroupOp::UMax,
        SubgroupOp::FMax,
        SubgroupOp::BitwiseAnd,
        SubgroupOp::BitwiseOr,
        SubgroupOp::BitwiseXor,
        SubgroupOp::LogicalAnd,
        SubgroupOp::LogicalOr,
        SubgroupOp::LogicalXor,
        SubgroupOp::QuadBroadcast,
        SubgroupOp::QuadSwap,
        SubgroupOp::Barrier,
        SubgroupOp::CoopMulAdd,
    ];
}

/// Element type codes passed to [`RT_SUBGROUP`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[allow(missing_docs, reason = "named after the types")]
pub enum ElemCode {
    /// A boolean, passed as one byte (0 or 1).
    Bool = 1,
    I8 = 2,
    I16 = 3,
    I32 = 4,
    I64 = 5,
    F16 = 6,
    F32 = 7,
    F64 = 8,
    /// bfloat16 (cooperative matrices only).
    BF16 = 9,
}

/// `OpGroupOperation` codes passed to [`RT_SUBGROUP`] (the SPIR-V values).
pub const GROUP_REDUCE: u32 = 0;
/// See [`GROUP_REDUCE`].
pub const GROUP_INCLUSIVE_SCAN: u32 = 1;
/// See [`GROUP_REDUCE`].
pub const GROUP_EXCLUSIVE_SCAN: u32 = 2;
/// See [`GROUP_REDUCE`].
pub const GROUP_CLUSTERED_REDUCE: u32 = 3;

/// One resource slot: a variable the host binds memory to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotInfo {
    /// The spv global variable's name.
    pub name: String,
    /// Its storage class (`StorageBuffer`, `Uniform` or `PushConstant`).
    pub storage_class: StorageClass,
    /// Descriptor set and binding (`None` for push constants).
    pub binding: Option<(u32, u32)>,
    /// The element of the binding's array of descriptors this slot is
    /// (0 for a binding of one descriptor).
    pub element: u32,
    /// Bytes of the fixed part of the block (a trailing runtime array adds
    /// none).
    pub min_bytes: u64,
    /// Element stride of a trailing runtime array, if any.
    pub runtime_stride: Option<u64>,
}

/// A `Workgroup` or `Private` variable's place in its block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarPlace {
    /// The spv global variable's name.
    pub name: String,
    /// Byte offset in the block.
    pub offset: u64,
    /// Size in bytes.
    pub bytes: u64,
}

/// What a runner needs to know about one converted entry point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInfo {
    /// The spv function's name.
    pub name: String,
    /// The LLVM function the harness calls with a context
    /// ([`ENTRY_PREFIX`] + name).
    pub symbol: String,
    /// The workgroup size (after specialization).
    pub local_size: [u32; 3],
    /// The module's resource slots, by slot index.
    pub slots: Vec<SlotInfo>,
    /// Bytes of workgroup memory.
    pub workgroup_bytes: u64,
    /// The workgroup variables.
    pub workgroup_vars: Vec<VarPlace>,
    /// Bytes of private memory per invocation.
    pub private_bytes: u64,
    /// The private variables.
    pub private_vars: Vec<VarPlace>,
    /// Whether the module has workgroup barriers (invocations of a
    /// workgroup must then run as coroutines).
    pub uses_barriers: bool,
    /// Whether the module has subgroup operations.
    pub uses_subgroups: bool,
    /// The largest single access, in bytes (the scratch must hold it).
    pub max_access_bytes: u64,
    /// The subgroup size the code was converted for, when it depends on
    /// it (cooperative matrices): it must run with exactly that size.
    pub fixed_subgroup_size: Option<u32>,
}

impl KernelInfo {
    /// Whether binding `(set, binding)` is an array of descriptors (it
    /// has a slot with an element past 0).
    pub fn is_array(&self, set: u32, binding: u32) -> bool {
        self.slots
            .iter()
            .any(|s| s.binding == Some((set, binding)) && s.element > 0)
    }

    /// A human name for the region of an out-of-bounds report.
    pub fn region_name(&self, region: u32) -> String {
        let index = (region & 0xffff) as usize;
        match region & !0xffff {
            0 => match self.slots.get(index) {
                Some(s) => match (s.storage_class, s.binding) {
                    (_, Some((set, binding))) if s.element > 0 || self.is_array(set, binding) => {
                        format!(
                            "buffer set {set} binding {binding} element {} (@{})",
                            s.element, s.name
                        )
                    }
                    (_, Some((set, binding))) => {
                        format!("buffer set {set} binding {binding} (@{})", s.name)
                    }
                    (sc, None) => format!("{} block @{}", sc.name(), s.name),
                },
                None => format!("slot {index}"),
            },
            REGION_WORKGROUP => match self.workgroup_vars.get(index) {
                Some(v) => format!("workgroup variable @{}", v.name),
                None => "workgroup memory".into(),
            },
            REGION_PRIVATE => match self.private_vars.get(index) {
                Some(v) => format!("private variable @{}", v.name),
                None => "private memory".into(),
            },
            REGION_FUNCTION => "a function variable".into(),
            _ => "memory outside every bound buffer".into(),
        }
    }
}
