//! The mobile information bar (000 s9): the site's phone, email, address and hours as links
//! along the bottom of the screen at a viewport of 1024 px or less (the stylesheet decides;
//! wider screens show the same facts in the footer's flow).

use vitrine_core::site::InformationBar;

#[derive(Debug)]
pub(crate) struct InformationBarView<'a> {
    pub(crate) phone: Option<(&'a str, String)>,
    pub(crate) email: Option<(&'a str, String)>,
    pub(crate) address: Option<(&'a str, String)>,
    pub(crate) hours: Option<&'a str>,
}

impl<'a> InformationBarView<'a> {
    /// The bar, or none when the site has none or its stored data breaks the bar's rules.
    pub(crate) fn new(bar: Option<&'a InformationBar>) -> Option<Self> {
        let bar = bar.filter(|bar| bar.check().is_ok())?;
        let present =
            |value: &'a Option<String>| value.as_deref().filter(|value| !value.trim().is_empty());
        Some(Self {
            phone: present(&bar.phone).zip(bar.phone_href()),
            email: present(&bar.email).map(|email| (email, format!("mailto:{email}"))),
            address: present(&bar.address).map(|address| {
                let query: String =
                    url::form_urlencoded::byte_serialize(address.as_bytes()).collect();
                (
                    address,
                    format!("https://www.openstreetmap.org/search?query={query}"),
                )
            }),
            hours: present(&bar.hours),
        })
    }
}
