//! The declarative macro that turns one `(Variant, code, "spec name")` table into a coded enum.

/// Declares an enumeration whose wire form is a numeric code from the specification.
///
/// Each variant is written once as `Variant = code => "spec name"`. The macro derives the
/// usual traits and generates `code()`, `from_code()`, `ALL`, `name()` (the Rust variant
/// name, which is also the key used in the generated TypeScript), `spec_name()` (the wording
/// of the specification, used by `Display`), serde as the bare numeric code, and the
/// [`CodedEnum`](crate::enums::CodedEnum) and [`NumericEnum`](crate::enums::NumericEnum)
/// implementations the code generator and the property tests iterate over.
macro_rules! numeric_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $code:literal => $spec:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every variant, in the order of the specification's table.
            pub const ALL: &'static [Self] = &[ $( Self::$variant, )+ ];

            /// The numeric code the specification gives this value.
            pub const fn code(self) -> u16 {
                match self { $( Self::$variant => $code, )+ }
            }

            /// Looks a value up by its numeric code.
            pub const fn from_code(code: u16) -> Result<Self, $crate::enums::UnknownCode> {
                match code {
                    $( $code => Ok(Self::$variant), )+
                    _ => Err($crate::enums::UnknownCode { enum_name: stringify!($name), code }),
                }
            }

            /// The stable variant name, identical to the key in the generated TypeScript.
            pub const fn name(self) -> &'static str {
                match self { $( Self::$variant => stringify!($variant), )+ }
            }

            /// The value's name as the specification words it.
            pub const fn spec_name(self) -> &'static str {
                match self { $( Self::$variant => $spec, )+ }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.spec_name())
            }
        }

        impl ::std::convert::TryFrom<u16> for $name {
            type Error = $crate::enums::UnknownCode;

            fn try_from(code: u16) -> Result<Self, $crate::enums::UnknownCode> {
                Self::from_code(code)
            }
        }

        impl ::std::convert::From<$name> for u16 {
            fn from(value: $name) -> u16 {
                value.code()
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_u16(self.code())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let code = <u16 as ::serde::Deserialize>::deserialize(deserializer)?;
                Self::from_code(code).map_err(<D::Error as ::serde::de::Error>::custom)
            }
        }

        impl $crate::enums::CodedEnum for $name {
            const ENUM_NAME: &'static str = stringify!($name);

            fn all() -> &'static [Self] {
                Self::ALL
            }

            fn name(self) -> &'static str {
                $name::name(self)
            }

            fn spec_name(self) -> &'static str {
                $name::spec_name(self)
            }

            fn wire_code(self) -> $crate::enums::WireCode {
                $crate::enums::WireCode::Number(self.code())
            }
        }

        impl $crate::enums::NumericEnum for $name {
            fn code(self) -> u16 {
                $name::code(self)
            }

            fn from_code(code: u16) -> Result<Self, $crate::enums::UnknownCode> {
                $name::from_code(code)
            }
        }
    };
}

pub(crate) use numeric_enum;
