//! The menu block (type 18): a restaurant's menus, one tab each (000 s4: one tab selected at
//! a time, the first at first), each a list of sections of dishes with their prices.

use serde::{Deserialize, Serialize};

/// The most tabs a menu block shows; more would not fit a row of tabs on a phone.
pub const MAX_MENU_TABS: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MenuBlock {
    pub tabs: Vec<MenuTab>,
}

/// One menu (lunch, dinner, drinks).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MenuTab {
    pub title: String,
    pub sections: Vec<MenuSection>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MenuSection {
    pub title: String,
    pub items: Vec<MenuItem>,
}

/// A dish: its name, what it is, and its price as the owner writes it ("12", "9 / 14").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MenuItem {
    pub name: String,
    pub description: Option<String>,
    pub price: Option<String>,
}

/// Why a menu block was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MenuBlockError {
    #[error("a menu block needs at least one tab")]
    NoTabs,
    #[error("a menu block shows at most {MAX_MENU_TABS} tabs, found {0}")]
    TooManyTabs(usize),
    #[error("tab {0} needs a title")]
    UntitledTab(usize),
    #[error("the tab title '{0}' is used twice")]
    DuplicateTab(String),
    #[error("tab {tab} section {section} item {item} needs a name")]
    UnnamedItem {
        tab: usize,
        section: usize,
        item: usize,
    },
}

impl MenuBlock {
    pub fn check(&self) -> Result<(), MenuBlockError> {
        if self.tabs.is_empty() {
            return Err(MenuBlockError::NoTabs);
        }
        if self.tabs.len() > MAX_MENU_TABS {
            return Err(MenuBlockError::TooManyTabs(self.tabs.len()));
        }
        for (index, tab) in self.tabs.iter().enumerate() {
            if tab.title.trim().is_empty() {
                return Err(MenuBlockError::UntitledTab(index));
            }
            if self.tabs[..index]
                .iter()
                .any(|other| other.title == tab.title)
            {
                return Err(MenuBlockError::DuplicateTab(tab.title.clone()));
            }
            for (section_index, section) in tab.sections.iter().enumerate() {
                if let Some(item) = section
                    .items
                    .iter()
                    .position(|item| item.name.trim().is_empty())
                {
                    return Err(MenuBlockError::UnnamedItem {
                        tab: index,
                        section: section_index,
                        item,
                    });
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tab(title: &str) -> MenuTab {
        MenuTab {
            title: title.into(),
            sections: vec![MenuSection {
                title: "Starters".into(),
                items: vec![MenuItem {
                    name: "Soup".into(),
                    description: None,
                    price: Some("6".into()),
                }],
            }],
        }
    }

    #[test]
    fn tabs_are_titled_distinct_and_few() {
        assert_eq!(
            MenuBlock {
                tabs: vec![tab("Lunch"), tab("Dinner")]
            }
            .check(),
            Ok(())
        );
        assert_eq!(
            MenuBlock { tabs: vec![] }.check(),
            Err(MenuBlockError::NoTabs)
        );
        assert_eq!(
            MenuBlock {
                tabs: vec![tab("Lunch"), tab("Lunch")]
            }
            .check()
            .unwrap_err()
            .to_string(),
            "the tab title 'Lunch' is used twice"
        );
        let many = (0..9).map(|n| tab(&format!("Menu {n}"))).collect();
        assert_eq!(
            MenuBlock { tabs: many }.check(),
            Err(MenuBlockError::TooManyTabs(9))
        );
    }

    #[test]
    fn every_dish_has_a_name() {
        let mut menu = MenuBlock {
            tabs: vec![tab("Lunch")],
        };
        menu.tabs[0].sections[0].items[0].name = " ".into();
        assert_eq!(
            menu.check().unwrap_err().to_string(),
            "tab 0 section 0 item 0 needs a name"
        );
    }
}
