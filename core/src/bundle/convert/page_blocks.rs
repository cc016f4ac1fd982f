//! The embed, audio, shape, menu, calendar, table-reservation and follow-button blocks of a bundle, each
//! checked by its own rules in the core so a bad value is refused with the field it came from.

use crate::bundle::BundleError;
use crate::bundle::convert::Converter;
use crate::bundle::dto::{
    AudioDto, CalendarDto, DropShadowDto, EmbedDto, FollowButtonDto, MenuDto, ShadowLengthDto,
    ShapeDto, TableReservationDto,
};
use crate::bundle::error::At;
use crate::site::{
    AudioBlock, AudioTrack, BlockContent, CalendarBlock, DEFAULT_EMBED_HEIGHT, DropShadow,
    EmbedBlock, FollowButtonBlock, MenuBlock, MenuItem, MenuSection, MenuTab, ShadowLength,
    ShadowUnit, ShapeBlock, ShapeName, TableReservationBlock, YearMonth,
};

impl Converter {
    /// One of this module's block types, or `None` for any other `kind`.
    pub(super) fn page_block(
        &self,
        at: &At,
        kind: &str,
        fields: toml::Value,
    ) -> Result<Option<BlockContent>, BundleError> {
        Ok(Some(match kind {
            "embed" => embed(at, at.deserialize(fields)?)?,
            "audio" => audio(at, at.deserialize(fields)?)?,
            "shape" => shape(at, at.deserialize(fields)?)?,
            "menu" => menu(at, at.deserialize(fields)?)?,
            "calendar" => self.calendar(at, at.deserialize(fields)?)?,
            "table-reservation" => table_reservation(at, at.deserialize(fields)?)?,
            "follow-button" => follow_button(at, at.deserialize(fields)?)?,
            _ => return Ok(None),
        }))
    }

    fn calendar(&self, at: &At, dto: CalendarDto) -> Result<BlockContent, BundleError> {
        let collection = self.listing_collection(&at.field("collection"), &dto.collection)?;
        let opening_month = dto
            .month
            .as_deref()
            .map(YearMonth::parse)
            .transpose()
            .map_err(|error| at.field("month").error(error.to_string()))?;
        Ok(BlockContent::Calendar(CalendarBlock {
            collection,
            title: dto.title,
            opening_month,
        }))
    }
}

fn embed(at: &At, dto: EmbedDto) -> Result<BlockContent, BundleError> {
    let block = EmbedBlock {
        url: dto.url,
        title: dto.title,
        height: dto.height.unwrap_or(DEFAULT_EMBED_HEIGHT),
        essential: dto.essential,
    };
    block.check().map_err(|error| {
        let field = match error {
            crate::site::EmbedBlockError::Url(_) => "url",
            crate::site::EmbedBlockError::Height(_) => "height",
            crate::site::EmbedBlockError::MissingTitle => "title",
        };
        at.field(field).error(error.to_string())
    })?;
    Ok(BlockContent::Embed(block))
}

fn audio(at: &At, dto: AudioDto) -> Result<BlockContent, BundleError> {
    let block = AudioBlock {
        title: dto.title,
        artist: dto.artist,
        tracks: dto
            .tracks
            .into_iter()
            .map(|track| AudioTrack {
                title: track.title,
                file: track.file,
            })
            .collect(),
    };
    block
        .check()
        .map_err(|error| at.field("tracks").error(error.to_string()))?;
    Ok(BlockContent::Audio(block))
}

fn shape(at: &At, dto: ShapeDto) -> Result<BlockContent, BundleError> {
    let Some(name) = ShapeName::parse(&dto.shape) else {
        let names: Vec<&str> = ShapeName::ALL.iter().map(|shape| shape.name()).collect();
        return Err(at.field("shape").error(format!(
            "expected one of {}, found '{}'",
            names.join(", "),
            dto.shape
        )));
    };
    let shadow_at = at.field("drop-shadow");
    let drop_shadow = dto
        .drop_shadow
        .map(|shadow| drop_shadow(&shadow_at, shadow))
        .transpose()?;
    let block = ShapeBlock {
        shape: name,
        color: dto.color,
        drop_shadow,
        label: dto.label,
    };
    block.check().map_err(|error| {
        let field = match error {
            crate::site::ShapeBlockError::Color(_) => at.field("color"),
            _ => shadow_at.clone(),
        };
        field.error(error.to_string())
    })?;
    Ok(BlockContent::Shape(block))
}

fn drop_shadow(at: &At, dto: DropShadowDto) -> Result<DropShadow, BundleError> {
    let length = |name: &str, dto: ShadowLengthDto| -> Result<ShadowLength, BundleError> {
        let unit = match dto.unit.as_str() {
            "px" => ShadowUnit::Px,
            "em" => ShadowUnit::Em,
            "rem" => ShadowUnit::Rem,
            other => {
                return Err(at
                    .field(name)
                    .field("unit")
                    .error(format!("expected px, em or rem, found '{other}'")));
            }
        };
        Ok(ShadowLength {
            value: dto.value,
            unit,
        })
    };
    Ok(DropShadow {
        angle: dto.angle,
        distance: length("distance", dto.distance)?,
        blur: length("blur", dto.blur)?,
    })
}

fn menu(at: &At, dto: MenuDto) -> Result<BlockContent, BundleError> {
    let block = MenuBlock {
        tabs: dto
            .tabs
            .into_iter()
            .map(|tab| MenuTab {
                title: tab.title,
                sections: tab
                    .sections
                    .into_iter()
                    .map(|section| MenuSection {
                        title: section.title,
                        items: section
                            .items
                            .into_iter()
                            .map(|item| MenuItem {
                                name: item.name,
                                description: item.description,
                                price: item.price,
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect(),
    };
    block
        .check()
        .map_err(|error| at.field("tabs").error(error.to_string()))?;
    Ok(BlockContent::Menu(block))
}

fn table_reservation(at: &At, dto: TableReservationDto) -> Result<BlockContent, BundleError> {
    let block = TableReservationBlock {
        restaurant_id: dto.restaurant_id,
        restaurant_name: dto.restaurant_name,
    };
    block.check().map_err(|error| {
        let field = match error {
            crate::site::TableReservationError::RestaurantId => "restaurant-id",
            crate::site::TableReservationError::MissingName => "restaurant-name",
        };
        at.field(field).error(error.to_string())
    })?;
    Ok(BlockContent::TableReservation(block))
}

fn follow_button(at: &At, dto: FollowButtonDto) -> Result<BlockContent, BundleError> {
    let block = FollowButtonBlock {
        username: dto.username,
    };
    block
        .check()
        .map_err(|error| at.field("username").error(error.to_string()))?;
    Ok(BlockContent::FollowButton(block))
}
