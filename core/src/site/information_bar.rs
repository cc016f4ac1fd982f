//! The mobile information bar (000 s9): the site's phone, email, address and opening hours in a
//! bar along the bottom of the screen at a viewport of 1024 px or less, where a visitor on a
//! phone looks for a way to call or find the place.

use serde::{Deserialize, Serialize};

/// The longest text of one of the bar's fields.
pub const MAX_INFORMATION_BAR_TEXT: usize = 120;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InformationBar {
    /// A phone number as dialled: digits, spaces, `+`, `-`, `(` and `)`.
    pub phone: Option<String>,
    pub email: Option<String>,
    /// The address as one line, linked to a maps search.
    pub address: Option<String>,
    /// The opening hours as the owner writes them ("Tue–Sat 10–18").
    pub hours: Option<String>,
}

/// Why an information bar was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InformationBarError {
    #[error("the information bar needs at least one of phone, email, address and hours")]
    Empty,
    #[error("expected a phone number of digits, spaces, '+', '-', '(' and ')', found '{0}'")]
    Phone(String),
    #[error("expected an email address such as hello@example.com, found '{0}'")]
    Email(String),
    #[error("'{field}' is longer than {MAX_INFORMATION_BAR_TEXT} characters")]
    TooLong { field: &'static str },
}

impl InformationBar {
    pub fn check(&self) -> Result<(), InformationBarError> {
        let fields = [
            ("phone", &self.phone),
            ("email", &self.email),
            ("address", &self.address),
            ("hours", &self.hours),
        ];
        if fields
            .iter()
            .all(|(_, value)| value.as_deref().is_none_or(|value| value.trim().is_empty()))
        {
            return Err(InformationBarError::Empty);
        }
        for (field, value) in fields {
            if value
                .as_deref()
                .is_some_and(|value| value.chars().count() > MAX_INFORMATION_BAR_TEXT)
            {
                return Err(InformationBarError::TooLong { field });
            }
        }
        if let Some(phone) = &self.phone {
            let digits = phone.chars().filter(char::is_ascii_digit).count();
            let allowed = phone
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '+' | '-' | '(' | ')'));
            if !allowed || digits < 3 {
                return Err(InformationBarError::Phone(phone.clone()));
            }
        }
        if let Some(email) = &self.email {
            let valid = email.split_once('@').is_some_and(|(local, domain)| {
                !local.is_empty() && domain.contains('.') && !email.contains(char::is_whitespace)
            });
            if !valid {
                return Err(InformationBarError::Email(email.clone()));
            }
        }
        Ok(())
    }

    /// The `tel:` address of the phone number: its digits and a leading `+`.
    pub fn phone_href(&self) -> Option<String> {
        let phone = self.phone.as_deref()?;
        let dialled: String = phone
            .chars()
            .filter(|c| c.is_ascii_digit() || *c == '+')
            .collect();
        Some(format!("tel:{dialled}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar() -> InformationBar {
        InformationBar {
            phone: Some("+351 21 000 0000".into()),
            email: Some("ola@terraluz.example".into()),
            address: Some("Rua da Argila Azul 14, Lisboa".into()),
            hours: None,
        }
    }

    #[test]
    fn a_bar_with_a_phone_dials_its_digits() {
        assert_eq!(bar().check(), Ok(()));
        assert_eq!(bar().phone_href().as_deref(), Some("tel:+351210000000"));
    }

    #[test]
    fn an_empty_bar_and_bad_contacts_are_refused() {
        assert_eq!(
            InformationBar::default().check(),
            Err(InformationBarError::Empty)
        );
        let mut bad = bar();
        bad.phone = Some("call us".into());
        assert_eq!(
            bad.check().unwrap_err().to_string(),
            "expected a phone number of digits, spaces, '+', '-', '(' and ')', found 'call us'"
        );
        let mut bad = bar();
        bad.email = Some("ola at terraluz".into());
        assert_eq!(
            bad.check(),
            Err(InformationBarError::Email("ola at terraluz".into()))
        );
        let mut bad = bar();
        bad.hours = Some("x".repeat(121));
        assert_eq!(
            bad.check(),
            Err(InformationBarError::TooLong { field: "hours" })
        );
    }
}
