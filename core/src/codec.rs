//! What kiln's serde forms share: the SPIR-V grammar's enums as a format
//! stores them (a capability by its SPIR-V value, an extension by its
//! name), and the reason a custom form refused a value.
//!
//! A compact binary format (postcard, which the program
//! [`archive`](crate::codegen::archive) uses) keeps no message with a
//! custom error: `refuse` and `refuse_to_store` also leave theirs here
//! for the caller to `take_reason` after the format failed.

use std::cell::RefCell;
use std::fmt::Display;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::grammar::{Capability, Extension};

thread_local! {
    static REASON: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn leave(what: &str, message: impl Display) -> String {
    let reason = format!("{what}: {message}");
    REASON.with(|r| *r.borrow_mut() = Some(reason.clone()));
    reason
}

/// A decode error: `what` (being read) is not a value, because of
/// `message`; the reason is left for [`take_reason`].
pub(crate) fn refuse<E: serde::de::Error>(what: &str, message: impl Display) -> E {
    E::custom(leave(what, message))
}

/// An encode error: `what` cannot be stored, because of `message`; the
/// reason is left for [`take_reason`].
pub(crate) fn refuse_to_store<E: serde::ser::Error>(what: &str, message: impl Display) -> E {
    E::custom(leave(what, message))
}

/// The reason the last [`refuse`] or [`refuse_to_store`] of this thread
/// gave, and forgets it (call it before a decode too, to start clean).
pub(crate) fn take_reason() -> Option<String> {
    REASON.with(|r| r.borrow_mut().take())
}

/// A capability as its SPIR-V value.
impl Serialize for Capability {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(*self as u32)
    }
}

impl<'de> Deserialize<'de> for Capability {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = u32::deserialize(d)?;
        Capability::from_u32(v).ok_or_else(|| refuse("capability", format!("value {v}")))
    }
}

/// An extension as its name.
impl Serialize for Extension {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Extension {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Extension::from_name(&name).ok_or_else(|| refuse("extension", name))
    }
}
