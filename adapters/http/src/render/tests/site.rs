//! The test site: the core's conformance fixture plus a page with every block type, a shop
//! with products in every price state, a logo, and navigation with a social link.

use vitrine_core::catalog::{OptionValue, Product, Sku, Variant};
use vitrine_core::enums::{CollectionType, ItemStatus, ItemType, ProductType};
use vitrine_core::ports::conformance::fixture_site;
use vitrine_core::site::*;
use vitrine_core::widgets::TextEffect;

fn id<T: TryFrom<String>>(value: &str) -> T
where
    T::Error: std::fmt::Debug,
{
    T::try_from(value.to_owned()).expect("test ids are valid")
}

pub(crate) fn media(path: &str, alt: &str) -> MediaRef {
    MediaRef {
        path: path.into(),
        alt: alt.into(),
        width: 1200,
        height: 800,
        version: None,
    }
}

fn block(block_id: &str, content: BlockContent) -> Block {
    Block {
        id: id(block_id),
        content,
    }
}

fn column(span: u8, blocks: Vec<Block>) -> Column {
    Column { span, blocks }
}

fn field(field_id: &str, field_type: FormFieldType, title: &str) -> FormField {
    FormField {
        id: field_id.into(),
        field_type,
        title: title.into(),
        description: String::new(),
        placeholder: String::new(),
        required: false,
        options: vec![],
        max_length: None,
    }
}

fn form_block() -> FormBlock {
    use FormFieldType as T;
    let required = |mut field: FormField| {
        field.required = true;
        field
    };
    let with_options = |mut field: FormField, options: &[&str]| {
        field.options = options.iter().map(|option| (*option).to_owned()).collect();
        field
    };
    let mut message = field("message", T::Textarea, "Message");
    message.max_length = Some(500);
    message.description = "Tell us about your project.".into();
    let mut email = required(field("email", T::Email, "Email"));
    email.placeholder = "you@example.com".into();
    FormBlock {
        form_id: "contact-form".into(),
        title: Some("Get in touch".into()),
        fields: vec![
            required(field("name", T::Name, "Name")),
            email,
            message,
            field("text", T::Text, "Company"),
            field("number", T::Number, "Pieces"),
            field("website", T::Website, "Website"),
            field("budget", T::Currency, "Budget"),
            field("secret", T::Password, "Password"),
            field("twitter", T::Twitter, "Twitter"),
            field("date", T::Date, "Date"),
            field("time", T::Time, "Time"),
            field("address", T::Address, "Address"),
            field("phone", T::Phone, "Phone"),
            field("section", T::Section, "About the piece"),
            required(with_options(
                field("glaze", T::Radio, "Glaze"),
                &["Matte", "Gloss"],
            )),
            with_options(field("uses", T::Checkbox, "Uses"), &["Tea", "Flowers"]),
            with_options(field("size", T::Select, "Size"), &["Small", "Large"]),
            with_options(
                field("likert", T::Likert, "Your visit"),
                &["The studio was easy to find"],
            ),
            field("source", T::Hidden, "Source"),
        ],
        submit_label: "Send".into(),
        post_submit_message: SafeHtml::sanitize("<p>Thank you!</p>"),
        success_url: None,
    }
}

/// Every block type, in a layout of several rows and column spans.
fn kitchen_sink_layout() -> Layout {
    let rows = vec![
        Row {
            columns: vec![column(
                12,
                vec![block(
                    "text",
                    BlockContent::Html {
                        html: SafeHtml::sanitize(
                            r#"<h2>Made by hand</h2><p>Small batches <a href="javascript:alert(1)">x</a>.</p>"#,
                        ),
                    },
                )],
            )],
        },
        Row {
            columns: vec![
                column(
                    6,
                    vec![block(
                        "hero",
                        BlockContent::Image {
                            image: media("/media/hero.jpg", "A row of glazed bowls"),
                            caption: Some("Fresh from the kiln".into()),
                            link: Some("/shop".into()),
                        },
                    )],
                ),
                column(
                    6,
                    vec![block(
                        "quote",
                        BlockContent::Quote {
                            text: "The best mug I own.".into(),
                            source: Some("A customer".into()),
                        },
                    )],
                ),
            ],
        },
        Row {
            columns: vec![
                column(
                    4,
                    vec![
                        block(
                            "button",
                            BlockContent::Button {
                                label: "Visit the shop".into(),
                                href: "/shop".into(),
                                size: ButtonSize::Large,
                                alignment: Alignment::Center,
                                new_window: false,
                                tooltip: Some("Opens the shop".into()),
                                popup: None,
                            },
                        ),
                        block(
                            "evil-button",
                            BlockContent::Button {
                                label: "Win".into(),
                                href: "javascript:alert(1)".into(),
                                size: ButtonSize::Small,
                                alignment: Alignment::Left,
                                new_window: true,
                                tooltip: None,
                                popup: None,
                            },
                        ),
                        block("space", BlockContent::Spacer { size: 40 }),
                        block("rule", BlockContent::HorizontalRule),
                    ],
                ),
                column(
                    8,
                    vec![block(
                        "code",
                        BlockContent::Code {
                            code: "<script>alert('code')</script>".into(),
                        },
                    )],
                ),
            ],
        },
        Row {
            columns: vec![column(
                12,
                vec![block(
                    "gallery",
                    BlockContent::Gallery {
                        design: "grid".into(),
                        slides: vec![
                            GallerySlide {
                                id: "slide-1".into(),
                                image: media("/media/bowl.jpg", "Blue bowl"),
                                title: Some("Blue bowl".into()),
                                caption: Some("Stoneware".into()),
                                video: None,
                                link: None,
                            },
                            GallerySlide {
                                id: "slide-2".into(),
                                image: media("/media/cup.jpg", ""),
                                title: None,
                                caption: None,
                                video: None,
                                link: None,
                            },
                        ],
                        lightbox: true,
                        autoplay: false,
                        options: Default::default(),
                    },
                )],
            )],
        },
        Row {
            columns: vec![
                column(
                    6,
                    vec![block(
                        "journal-summary",
                        BlockContent::Summary {
                            collection: id("journal"),
                            title: Some("From the journal".into()),
                            design: SummaryDesign::Grid,
                            limit: 2,
                        },
                    )],
                ),
                column(
                    6,
                    vec![block(
                        "shop-summary",
                        BlockContent::Summary {
                            collection: id("shop"),
                            title: None,
                            design: SummaryDesign::List,
                            limit: 3,
                        },
                    )],
                ),
            ],
        },
        Row {
            columns: vec![
                column(8, vec![block("contact", BlockContent::Form(form_block()))]),
                column(
                    4,
                    vec![block(
                        "newsletter",
                        BlockContent::Newsletter {
                            title: "Studio letters".into(),
                            description: "New work, once a month.".into(),
                            button_label: "Subscribe".into(),
                            placeholder: "Email address".into(),
                        },
                    )],
                ),
            ],
        },
        Row {
            columns: vec![column(
                12,
                vec![
                    block(
                        "faq",
                        BlockContent::Accordion {
                            items: vec![
                                AccordionItem {
                                    title: "Do you ship?".into(),
                                    body: SafeHtml::sanitize(
                                        "<p>Yes, <strong>worldwide</strong>.</p>",
                                    ),
                                },
                                AccordionItem {
                                    title: "Are pieces food safe?".into(),
                                    body: SafeHtml::sanitize("<p>All glazes are food safe.</p>"),
                                },
                            ],
                            allow_multiple: false,
                            first_open: true,
                        },
                    ),
                    block(
                        "ticker",
                        BlockContent::Marquee {
                            text: "Open studio Saturday".into(),
                            props: MarqueeProps::default(),
                        },
                    ),
                    block(
                        "highlight",
                        BlockContent::TextEffect(TextEffectBlock {
                            before: "Made ".into(),
                            highlight: "slowly".into(),
                            after: ", by hand".into(),
                            level: Some(2),
                            effect: TextEffect::default(),
                        }),
                    ),
                ],
            )],
        },
        Row {
            columns: vec![
                column(
                    6,
                    vec![block(
                        "map",
                        BlockContent::Map {
                            location: MapLocation {
                                map_lat: 40.7,
                                map_lng: -74.0,
                                marker_lat: Some(40.7128),
                                marker_lng: Some(-74.006),
                                map_zoom: 14,
                                address_title: "Clay & Co. Studio".into(),
                                address_line1: "12 Kiln Street".into(),
                                address_line2: "Brooklyn, NY 11201".into(),
                                address_country: "United States".into(),
                            },
                            style: MapStyle::MinimalLight,
                            options: MapUiOptions::default(),
                        },
                    )],
                ),
                column(
                    6,
                    vec![block(
                        "film",
                        BlockContent::Video {
                            url: "https://www.youtube.com/watch?v=abc123".into(),
                            provider: "YouTube".into(),
                            title: "Throwing a vase".into(),
                            thumbnail: Some(media("/media/film.jpg", "Potter at the wheel")),
                            mode: Default::default(),
                        },
                    )],
                ),
            ],
        },
        Row {
            columns: vec![
                column(
                    6,
                    vec![block(
                        "featured",
                        BlockContent::Product { item: id("vase") },
                    )],
                ),
                column(
                    6,
                    vec![block(
                        "social",
                        BlockContent::SocialLinks {
                            links: vec![
                                SocialLink {
                                    service: "instagram".into(),
                                    url: "https://instagram.com/clayco".into(),
                                },
                                SocialLink {
                                    service: "pinterest".into(),
                                    url: "https://pinterest.com/clayco".into(),
                                },
                            ],
                        },
                    )],
                ),
            ],
        },
    ];
    Layout::new(rows).expect("the kitchen-sink layout is valid")
}

fn variant(sku: &str, price: i64, stock: u32) -> Variant {
    Variant {
        sku: Sku::parse(sku).expect("valid sku"),
        price,
        sale_price: 0,
        on_sale: false,
        qty_in_stock: stock,
        unlimited: false,
        option_values: vec![],
    }
}

fn product_item(slug: &str, title: &str, position: u32, variants: Vec<Variant>) -> Item {
    Item {
        id: id(slug),
        collection_id: id("shop"),
        slug: id(slug),
        title: title.into(),
        record_type: ItemType::StoreItem,
        status: ItemStatus::Published,
        published_on: 1_772_539_200_000,
        position,
        excerpt: SafeHtml::sanitize(&format!("<p>A {title} for every day.</p>")),
        body: Body::default(),
        author: None,
        tags: vec![],
        categories: vec![],
        image: Some(media(&format!("/media/{slug}.jpg"), title)),
        seo: Seo::default(),
        product: Some(Product::new(ProductType::Physical, variants).expect("valid product")),
    }
}

fn shop_items() -> Vec<Item> {
    let mut on_sale = variant("VASE-1", 4800, 5);
    on_sale.on_sale = true;
    on_sale.sale_price = 3600;
    let mut small = variant("BOWL-S", 1800, 4);
    small.option_values = vec![OptionValue {
        name: "Size".into(),
        value: "Small".into(),
    }];
    let mut large = variant("BOWL-L", 2400, 0);
    large.option_values = vec![OptionValue {
        name: "Size".into(),
        value: "Large".into(),
    }];
    vec![
        product_item("vase", "Tall vase", 0, vec![on_sale]),
        product_item("mug", "Speckled mug", 1, vec![variant("MUG-1", 2800, 0)]),
        product_item("bowl", "Serving bowl", 2, vec![small, large]),
    ]
}

fn page(slug: &str, title: &str, collection_type: CollectionType, layout: Layout) -> Collection {
    Collection {
        id: id(slug),
        collection_type,
        title: title.into(),
        slug: id(slug),
        description: String::new(),
        permission_type: PermissionType::Public,
        body: Body { raw: false, layout },
        seo: Seo::default(),
        enabled: true,
    }
}

/// The studio's site.
pub(crate) fn studio() -> Site {
    let mut site = fixture_site("Clay & Co.");
    site.settings.logo = Some(media("/media/logo.svg", "Logo"));
    site.settings.social_image = Some(media("/media/social.jpg", "The studio"));
    site.settings.footer_text = "© 2026 Clay & Co.".into();
    site.navigation = Navigation {
        main: vec![
            NavLink {
                title: "Home".into(),
                href: "/".into(),
            },
            NavLink {
                title: "Shop".into(),
                href: "/shop".into(),
            },
            NavLink {
                title: "Journal".into(),
                href: "/journal".into(),
            },
            NavLink {
                title: "Everything".into(),
                href: "/kitchen-sink".into(),
            },
        ],
        footer: vec![
            NavLink {
                title: "Shipping".into(),
                href: "/shipping".into(),
            },
            NavLink {
                title: "Instagram".into(),
                href: "https://www.instagram.com/clayco".into(),
            },
            NavLink {
                title: "Trick".into(),
                href: "javascript:alert(1)".into(),
            },
        ],
        ..Navigation::default()
    };
    let mut shop = page("shop", "Shop", CollectionType::Products, Layout::default());
    shop.description = "Bowls, mugs and vases.".into();
    site.collections.push(shop);
    site.collections.push(page(
        "kitchen-sink",
        "Everything",
        CollectionType::Page,
        kitchen_sink_layout(),
    ));
    site.items.extend(shop_items());
    site
}
