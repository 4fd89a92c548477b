//! Malformed binaries: each is built word by word and must fail with
//! exactly this message (word offset, opcode name, what is wrong), as
//! MLIR's `DeserializationTest.cpp` checks its deserializer's.

use kiln_core::binary::deserialize;
use spirv::Op;

use crate::common::Asm;

/// The words of a NUL-terminated string.
fn string(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while bytes.len() % 4 != 0 {
        bytes.push(0);
    }
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn error_of(words: &[u32]) -> String {
    match deserialize(words) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

// Ids used below.
const VOID: u32 = 1;
const FN_TY: u32 = 2;
const MAIN: u32 = 3;
const LABEL: u32 = 4;
const INT: u32 = 5;
const FN_INT_TY: u32 = 6;

/// `void main()` up to (and without) its body.
fn with_void_function(bound: u32) -> Asm {
    let mut a = Asm::preamble(bound);
    a.op(Op::TypeVoid, &[VOID]);
    a.op(Op::TypeFunction, &[FN_TY, VOID]);
    a
}

#[test]
fn empty_module() {
    assert_eq!(
        error_of(&[]),
        "empty module: a SPIR-V module needs at least the 5-word header"
    );
}

#[test]
fn wrong_magic_number() {
    assert_eq!(
        error_of(&[0x0723_0204, 0x0001_0000, 0, 10, 0]),
        "word 0: bad magic number 0x07230204 (expected 0x07230203)"
    );
}

#[test]
fn short_header_and_bad_header_words() {
    assert_eq!(
        error_of(&[spirv::MAGIC_NUMBER, 0x0001_0000]),
        "only 2 word(s): a SPIR-V module needs at least the 5-word header"
    );
    assert_eq!(
        error_of(&[spirv::MAGIC_NUMBER, 0x0002_0000, 0, 10, 0]),
        "word 1: unsupported SPIR-V version word 0x00020000 (expected 1.0 to v1.6)"
    );
    assert_eq!(
        error_of(&[spirv::MAGIC_NUMBER, 0x0001_0000, 0, 0, 0]),
        "word 3: id bound 0 is out of range (1 to 4194304)"
    );
    assert_eq!(
        error_of(&[spirv::MAGIC_NUMBER, 0x0001_0000, 0, 10, 7]),
        "word 4: reserved header word is 0x7, expected 0"
    );
}

#[test]
fn zero_word_count() {
    let mut a = Asm::new(10);
    a.words.push(Op::Capability as u32);
    assert_eq!(error_of(&a.words), "word 5 (OpCapability): word count is 0");
}

#[test]
fn truncated_instruction() {
    let mut a = Asm::new(10);
    a.words.push((3 << 16) | Op::Capability as u32);
    a.words.push(1);
    assert_eq!(
        error_of(&a.words),
        "word 5 (OpCapability): instruction of 3 words runs past the end of the module (2 word(s) left)"
    );
}

#[test]
fn missing_function_end() {
    let mut a = with_void_function(10);
    let f = a.op(Op::Function, &[VOID, MAIN, 0, FN_TY]);
    a.op(Op::Label, &[LABEL]);
    a.op(Op::Return, &[]);
    assert_eq!(
        error_of(&a.words),
        format!("word {f} (OpFunction): function %3 has no OpFunctionEnd")
    );
}

#[test]
fn missing_function_parameter() {
    let mut a = Asm::preamble(10);
    a.op(Op::TypeVoid, &[VOID]);
    a.op(Op::TypeInt, &[INT, 32, 0]);
    a.op(Op::TypeFunction, &[FN_INT_TY, VOID, INT]);
    a.op(Op::Function, &[VOID, MAIN, 0, FN_INT_TY]);
    let label = a.op(Op::Label, &[LABEL]);
    a.op(Op::Return, &[]);
    a.op(Op::FunctionEnd, &[]);
    assert_eq!(
        error_of(&a.words),
        format!(
            "word {label} (OpLabel): function %3 has 0 OpFunctionParameter(s), its type has 1 input(s)"
        )
    );
}

#[test]
fn missing_label() {
    let mut a = with_void_function(10);
    a.op(Op::Function, &[VOID, MAIN, 0, FN_TY]);
    let ret = a.op(Op::Return, &[]);
    a.op(Op::FunctionEnd, &[]);
    assert_eq!(
        error_of(&a.words),
        format!(
            "word {ret} (OpReturn): instruction outside a block in function %3 (missing OpLabel)"
        )
    );
}

#[test]
fn member_name_with_too_few_operands() {
    let mut a = Asm::preamble(10);
    let at = a.op(Op::MemberName, &[7]);
    assert_eq!(
        error_of(&a.words),
        format!("word {at} (OpMemberName): missing operand 'Member' (LiteralInteger)")
    );
}

#[test]
fn decorate_with_too_few_operands() {
    let mut a = Asm::preamble(10);
    let at = a.op(Op::Decorate, &[7]);
    assert_eq!(
        error_of(&a.words),
        format!("word {at} (OpDecorate): missing operand 'Decoration' (Decoration)")
    );
    // The decoration's own literal is missing.
    let mut a = Asm::preamble(10);
    let at = a.op(Op::Decorate, &[7, spirv::Decoration::Binding as u32]);
    assert_eq!(
        error_of(&a.words),
        format!("word {at} (OpDecorate): missing operand 'Binding Point' (LiteralInteger)")
    );
}

#[test]
fn undefined_id() {
    let mut a = with_void_function(10);
    a.op(Op::TypeInt, &[INT, 32, 0]);
    a.op(Op::Function, &[VOID, MAIN, 0, FN_TY]);
    a.op(Op::Label, &[LABEL]);
    let add = a.op(Op::IAdd, &[INT, 8, 9, 9]);
    a.op(Op::Return, &[]);
    a.op(Op::FunctionEnd, &[]);
    assert_eq!(
        error_of(&a.words),
        format!("word {add} (OpIAdd): %9 is never defined")
    );
    // An id at or above the bound.
    let mut a = with_void_function(10);
    let at = a.op(Op::TypeInt, &[12, 32, 0]);
    assert_eq!(
        error_of(&a.words),
        format!("word {at} (OpTypeInt): id 12 is out of range (the bound is 10)")
    );
}

#[test]
fn type_used_before_its_definition() {
    let mut a = Asm::preamble(10);
    let ptr = a.op(
        Op::TypePointer,
        &[7, spirv::StorageClass::StorageBuffer as u32, INT],
    );
    a.op(Op::TypeInt, &[INT, 32, 0]);
    assert_eq!(
        error_of(&a.words),
        format!("word {ptr} (OpTypePointer): %5 is not a type defined before this instruction")
    );
    // With a forward pointer, the pointer may be used, but it may not make
    // a type recursive (the IR's types are structural).
    let mut a = Asm::preamble(12);
    a.op(
        Op::TypeForwardPointer,
        &[7, spirv::StorageClass::PhysicalStorageBuffer as u32],
    );
    let st = a.op(Op::TypeStruct, &[8, 7]);
    assert_eq!(
        error_of(&a.words),
        format!(
            "word {st} (OpTypeStruct): unsupported: %7 is a forward-declared pointer used before its OpTypePointer (a recursive type); the IR's types cannot refer to themselves"
        )
    );
}

#[test]
fn unstructurable_control_flow() {
    // A selection whose merge block branches back into the selection's
    // then-block: the then-block would belong to the selection's region
    // and to the function body at once.
    const BOOL: u32 = 7;
    const TRUE: u32 = 8;
    const THEN: u32 = 9;
    const MERGE: u32 = 10;
    let mut a = with_void_function(12);
    a.op(Op::TypeBool, &[BOOL]);
    a.op(Op::ConstantTrue, &[BOOL, TRUE]);
    a.op(Op::Function, &[VOID, MAIN, 0, FN_TY]);
    a.op(Op::Label, &[LABEL]);
    a.op(Op::SelectionMerge, &[MERGE, 0]);
    a.op(Op::BranchConditional, &[TRUE, THEN, MERGE]);
    let then = a.op(Op::Label, &[THEN]);
    a.op(Op::Branch, &[MERGE]);
    a.op(Op::Label, &[MERGE]);
    a.op(Op::Branch, &[THEN]);
    a.op(Op::FunctionEnd, &[]);
    assert_eq!(
        error_of(&a.words),
        format!(
            "word {then} (OpLabel): block %9 cannot be structured: it is reached both from the construct headed by %4 and from the function body"
        )
    );
}

#[test]
fn unknown_enumerants_and_trailing_words() {
    let mut a = Asm::new(10);
    let at = a.op(Op::Capability, &[0x7fff_0000]);
    assert_eq!(
        error_of(&a.words),
        format!("word {at} (OpCapability): 0x7fff0000 is not a Capability value")
    );
    let mut a = Asm::new(10);
    let at = a.op(Op::Capability, &[1, 2]);
    assert_eq!(
        error_of(&a.words),
        format!("word {at} (OpCapability): 1 word(s) left after the last operand")
    );
    let mut a = Asm::new(10);
    let mut name = string("main");
    name.truncate(1);
    let at = a.op(Op::Extension, &name);
    assert_eq!(
        error_of(&a.words),
        format!("word {at} (OpExtension): literal string is not terminated within the instruction")
    );
}

#[test]
fn byte_swapped_module_reads() {
    let mut a = with_void_function(10);
    a.op(Op::Function, &[VOID, MAIN, 0, FN_TY]);
    a.op(Op::Label, &[LABEL]);
    a.op(Op::Return, &[]);
    a.op(Op::FunctionEnd, &[]);
    let swapped: Vec<u32> = a.words.iter().map(|w| w.swap_bytes()).collect();
    let m = deserialize(&swapped).expect("a big-endian module reads");
    assert_eq!(
        kiln_core::binary::serialize(&m).unwrap(),
        kiln_core::binary::serialize(&deserialize(&a.words).unwrap()).unwrap()
    );
}

/// An array type of 2^31 - 1 ints (`ARR`) and the constant 1 (`ONE`).
fn with_huge_array() -> (Asm, u32, u32) {
    const LEN: u32 = 20;
    const ARR: u32 = 21;
    const ONE: u32 = 22;
    let mut a = Asm::preamble(40);
    a.op(Op::TypeInt, &[INT, 32, 0]);
    a.op(Op::Constant, &[INT, LEN, i32::MAX as u32]);
    a.op(Op::TypeArray, &[ARR, INT, LEN]);
    a.op(Op::Constant, &[INT, ONE, 1]);
    (a, ARR, ONE)
}

#[test]
fn composites_of_huge_arrays_are_checked_before_any_allocation() {
    // Found by the binary_deserialize fuzz target: the element types of
    // the array were listed (8 GiB) before the count was compared.
    let (mut a, arr, one) = with_huge_array();
    let at = a.op(Op::ConstantComposite, &[arr, 30, one, one]);
    assert_eq!(
        error_of(&a.words),
        format!(
            "word {at} (OpConstantComposite): 2 constituent(s) do not fill the composite type \
             (it has 2147483647)"
        )
    );
    let (mut a, arr, one) = with_huge_array();
    let at = a.op(Op::SpecConstantComposite, &[arr, 30, one, one]);
    assert_eq!(
        error_of(&a.words),
        format!(
            "word {at} (OpSpecConstantComposite): 2 constituent(s) for a composite of 2147483647"
        )
    );
    let (mut a, arr, _) = with_huge_array();
    let at = a.op(Op::ConstantNull, &[arr, 30]);
    assert_eq!(
        error_of(&a.words),
        format!(
            "word {at} (OpConstantNull): unsupported: an OpConstantNull with more than 4 million \
             elements"
        )
    );
}
