//! Index newtypes shared by the whole engine.
//!
//! Operations, resources and classes are referred to by small integer ids so
//! that tables can be plain vectors; the newtypes keep the three apart.

use std::fmt;

/// A cycle number. Signed so that differences and modulo arithmetic stay simple.
pub type Cycle = i64;

macro_rules! id {
    ($(#[$m:meta])* $name:ident, $inner:ty) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(pub(crate) $inner);

        impl $name {
            /// The id with this number.
            #[inline]
            pub const fn new(n: $inner) -> Self {
                $name(n)
            }
            /// The id's number.
            #[inline]
            pub const fn get(self) -> $inner {
                self.0
            }
            /// The id as a vector index.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
            /// The id for a vector index (panics only on an engine bug: more than
            /// the inner type can count).
            #[inline]
            pub fn from_index(i: usize) -> Self {
                $name(<$inner>::try_from(i).expect("id overflow"))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

id!(
    /// An operation of a program, in source order.
    OpId,
    u32
);
id!(
    /// A resource of a machine; id 0 is always the `issue` pseudo-resource.
    ResourceId,
    u16
);
id!(
    /// An operation class of a machine.
    ClassId,
    u16
);
