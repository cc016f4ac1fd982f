//! The mobile platforms the bridge runs on, as the app's runtime names them.

use super::BridgeError;

/// The operating system of the app hosting the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MobilePlatform {
    Android,
    Ios,
}

impl MobilePlatform {
    /// Reads the platform name the app's runtime reports: exactly `android` or `ios`, as React
    /// Native's `Platform.OS` spells them and the shell's handler checks them. Any other name is a platform the bridge cannot serve, which
    /// 001 s8 reports as 'mobile platform not correctly identified'.
    pub fn identify(os: &str) -> Result<Self, BridgeError> {
        match os {
            "android" => Ok(Self::Android),
            "ios" => Ok(Self::Ios),
            _ => Err(BridgeError::PlatformNotIdentified),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Self::Android => "android",
            Self::Ios => "ios",
        }
    }
}
