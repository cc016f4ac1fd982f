//! `mirror_enum!`: a uniffi enum that mirrors a fieldless core enum variant for variant, with
//! `From` conversions both ways, so the exported type cannot drift from the core's.

macro_rules! mirror_enum {
    ($(#[$meta:meta])* $name:ident => $core:path { $($variant:ident),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
        pub enum $name {
            $($variant),+
        }

        impl From<$core> for $name {
            fn from(value: $core) -> Self {
                use $core as Core;
                match value {
                    $(Core::$variant => Self::$variant),+
                }
            }
        }

        impl From<$name> for $core {
            fn from(value: $name) -> Self {
                use $core as Core;
                match value {
                    $($name::$variant => Core::$variant),+
                }
            }
        }
    };
}

pub(crate) use mirror_enum;
