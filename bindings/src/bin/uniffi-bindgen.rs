//! uniffi's generator, run by `cargo xtask bindings` over the built library ("library mode") to
//! write the Kotlin, Swift and Python sources.

fn main() {
    uniffi::uniffi_bindgen_main()
}
