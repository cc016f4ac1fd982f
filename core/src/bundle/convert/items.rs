//! Collection files and item files into collections, items and products.

use std::collections::BTreeSet;

use crate::bundle::BundleError;
use crate::bundle::convert::body::BodySource;
use crate::bundle::convert::widgets::form_fields;
use crate::bundle::convert::{Converter, ItemDraft, Parsed, non_empty};
use crate::bundle::dto::{
    CollectionFile, CollectionTypeDto, FormFieldTypeDto, ItemStatusDto, PermissionDto, ProductDto,
    ProductFormDto, ProductTypeDto, SeoDto,
};
use crate::bundle::error::At;
use crate::bundle::text::{epoch_millis, markdown};
use crate::catalog::{
    BillingPeriod, OptionValue, Product, ProductForm, Sku, SubscriptionPlan, Variant,
};
use crate::enums::{CollectionType, ItemStatus, ItemType, ProductType};
use crate::site::{Collection, Item, PermissionType, Seo, Slug};

impl Converter {
    pub(crate) fn collection(
        &mut self,
        slug: &Slug,
        parsed: Parsed<'_, CollectionFile>,
    ) -> Result<Collection, BundleError> {
        let at = At::root(parsed.file);
        let dto = parsed.dto;
        non_empty(&at.field("title"), &dto.title)?;
        let (id, _) = self.known.collections[slug].clone();
        let body = self.body(
            &BodySource {
                at: at.clone(),
                owner: id.as_str(),
            },
            dto.blocks,
            dto.rows,
        )?;
        Ok(Collection {
            collection_type: match dto.collection_type {
                CollectionTypeDto::Page => CollectionType::Page,
                CollectionTypeDto::Generic => CollectionType::Generic,
                CollectionTypeDto::Products => CollectionType::Products,
            },
            id,
            title: dto.title,
            slug: slug.clone(),
            description: dto.description,
            permission_type: match dto.permission {
                PermissionDto::Public => PermissionType::Public,
                PermissionDto::PasswordProtected => PermissionType::PasswordProtected,
                PermissionDto::MembersOnly => PermissionType::MembersOnly,
            },
            body,
            seo: self.seo(&at.field("seo"), dto.seo)?,
            enabled: dto.enabled,
        })
    }

    pub(crate) fn item(
        &mut self,
        collection_slug: &Slug,
        kind: CollectionTypeDto,
        draft: ItemDraft<'_>,
    ) -> Result<Item, BundleError> {
        let at = At::root(draft.item.file);
        let dto = draft.item.dto;
        non_empty(&at.field("title"), &dto.title)?;
        let (collection_id, _) = self.known.collections[collection_slug].clone();
        let (id, _) = self.known.items[&(collection_slug.clone(), draft.slug.clone())].clone();
        let published_on =
            epoch_millis(&dto.published).map_err(|message| at.field("published").error(message))?;
        let source = BodySource {
            at: at.clone(),
            owner: id.as_str(),
        };
        let body = match draft.body {
            None => self.body(&source, dto.blocks, dto.rows)?,
            Some(_) if dto.blocks.is_some() || dto.rows.is_some() => {
                return Err(at.field("blocks").error(
                    "expected the body either as Markdown after the front matter or as \
                     blocks, not both",
                ));
            }
            Some(text) => {
                // The Markdown body becomes one text block.
                let mut block = toml::Table::new();
                block.insert("type".into(), "markdown".into());
                block.insert("markdown".into(), text.into());
                self.body(&source, Some(vec![block]), None)?
            }
        };
        let is_shop = kind == CollectionTypeDto::Products;
        let product = match (dto.product, is_shop) {
            (Some(product), true) => Some(self.product(&at.field("product"), product)?),
            (None, false) => None,
            (Some(_), false) => {
                return Err(at.field("product").error(
                    "expected no product here; products belong in a collection of type \
                     \"products\"",
                ));
            }
            (None, true) => {
                return Err(at
                    .field("product")
                    .error("missing; every item of a products collection is a product"));
            }
        };
        Ok(Item {
            id,
            collection_id,
            slug: draft.slug,
            title: dto.title,
            record_type: if product.is_some() {
                ItemType::StoreItem
            } else {
                ItemType::Text
            },
            status: match dto.status {
                ItemStatusDto::Published => ItemStatus::Published,
                ItemStatusDto::Scheduled => ItemStatus::Scheduled,
                ItemStatusDto::NeedsReview => ItemStatus::NeedsReview,
                ItemStatusDto::Draft => ItemStatus::Draft,
                ItemStatusDto::Private => ItemStatus::Private,
            },
            published_on,
            position: dto.position,
            excerpt: dto.excerpt.as_deref().map(markdown).unwrap_or_default(),
            body,
            author: dto.author,
            tags: dto.tags,
            categories: dto.categories,
            image: self.optional_image(&dto.image, &at.field("image"))?,
            seo: self.seo(&at.field("seo"), dto.seo)?,
            product,
        })
    }

    fn seo(&self, at: &At, dto: SeoDto) -> Result<Seo, BundleError> {
        Ok(Seo {
            image: self.optional_image(&dto.image, &at.field("image"))?,
            title: dto.title,
            description: dto.description,
        })
    }

    fn product(&self, at: &At, dto: ProductDto) -> Result<Product, BundleError> {
        let names: BTreeSet<&str> = dto.options.iter().map(String::as_str).collect();
        if names.len() != dto.options.len() {
            return Err(at.field("options").error("expected each option name once"));
        }
        let variants_at = at.field("variants");
        if dto.variants.is_empty() {
            return Err(variants_at.error("expected at least one variant"));
        }
        let mut variants: Vec<Variant> = Vec::with_capacity(dto.variants.len());
        for (index, variant) in dto.variants.into_iter().enumerate() {
            let at = variants_at.index(index);
            let sku = match &variant.sku {
                Some(text) => Sku::parse(text.clone()).map_err(|_| {
                    at.field("sku").error(format!(
                        "expected a SKU of 1 to {} characters, found '{text}'",
                        Sku::MAX_LEN,
                    ))
                })?,
                None => {
                    let number = self.generated_skus.get() + 1;
                    self.generated_skus.set(number);
                    Sku::generated(number)
                }
            };
            let sale_price = match (variant.on_sale, variant.sale_price) {
                (true, None) => {
                    return Err(at
                        .field("sale_price")
                        .error("missing; a variant on sale needs a sale price"));
                }
                (true, Some(sale)) if sale.0 >= variant.price.0 => {
                    return Err(at.field("sale_price").error(format!(
                        "expected a sale price below the price of {}, found {}",
                        variant.price.0, sale.0
                    )));
                }
                (_, sale) => sale.map_or(0, |sale| sale.0),
            };
            let (qty_in_stock, unlimited) = match (variant.stock, variant.unlimited) {
                (Some(stock), false) => (stock, false),
                (None, true) => (0, true),
                (Some(_), true) => {
                    return Err(at.error("expected either 'stock' or 'unlimited = true', not both"));
                }
                (None, false) => {
                    return Err(at.error(
                        "expected either 'stock' (how many are left) or 'unlimited = true'",
                    ));
                }
            };
            let option_values = option_values(&at.field("options"), &dto.options, variant.options)?;
            if let Some(twin) = variants
                .iter()
                .position(|other| other.option_values == option_values)
            {
                return Err(at.field("options").error(format!(
                    "expected a combination of options different from variants[{twin}]"
                )));
            }
            variants.push(Variant {
                sku,
                price: variant.price.0,
                sale_price,
                on_sale: variant.on_sale,
                qty_in_stock,
                unlimited,
                option_values,
            });
        }
        let product_type = match dto.product_type {
            ProductTypeDto::Physical => ProductType::Physical,
            ProductTypeDto::Digital => ProductType::Digital,
            ProductTypeDto::Service => ProductType::Service,
            ProductTypeDto::GiftCard => ProductType::GiftCard,
        };
        let mut product = Product::new(product_type, variants)
            .map_err(|error| variants_at.error(error.to_string()))?;
        product.subscription_plan = dto.subscription.map(|plan| SubscriptionPlan {
            num_billing_cycles: plan.cycles,
            billing_period: BillingPeriod {
                value: plan.every.get(),
                unit: plan.unit,
            },
        });
        product.form = dto
            .form
            .map(|form| product_form(&at.field("form"), form))
            .transpose()?;
        Ok(product)
    }
}

/// A product's form: the fields of a form block, of the types whose answer is one text, and
/// a maximum length on text fields too (a name to engrave has one).
fn product_form(at: &At, dto: ProductFormDto) -> Result<ProductForm, BundleError> {
    let fields = form_fields(
        at,
        dto.fields,
        &[FormFieldTypeDto::Text, FormFieldTypeDto::Textarea],
    )?;
    ProductForm::new(dto.title.unwrap_or_default(), fields)
        .map_err(|error| at.error(error.to_string()))
}

/// A variant's option values, in the order the product declares its option names.
fn option_values(
    at: &At,
    names: &[String],
    mut values: std::collections::BTreeMap<String, String>,
) -> Result<Vec<OptionValue>, BundleError> {
    let mut ordered = Vec::with_capacity(names.len());
    for name in names {
        match values.remove(name) {
            Some(value) => {
                non_empty(&at.field(name), &value)?;
                ordered.push(OptionValue {
                    name: name.clone(),
                    value,
                });
            }
            None => {
                return Err(at
                    .field(name)
                    .error("missing; the product declares this option"));
            }
        }
    }
    if let Some(extra) = values.keys().next() {
        let declared: Vec<String> = names.iter().map(|name| format!("'{name}'")).collect();
        let declared = if declared.is_empty() {
            "none".to_owned()
        } else {
            declared.join(", ")
        };
        return Err(at.field(extra).error(format!(
            "unknown option; the product's options are {declared}"
        )));
    }
    Ok(ordered)
}
