//! `include_pica!`: assembles a PICA200 shader at compile time with shaderport's
//! picasso-compatible assembler (`pica::asm`) and yields the SHBIN bytes, so a Rust 3DS project
//! needs no devkitPro picasso at build time (docs/pica-macros.md).
//!
//! ```
//! // The SHBIN bytes, 4-byte aligned (the 3DS reads them as words).
//! static SHADER: &[u8] = pica_macros::include_pica!("../../../corpus/pica/citro2d/source/render2d.v.pica");
//! assert_eq!(&SHADER[..4], b"DVLB");
//!
//! // A module with the bytes and the constants of picasso's `-h` header.
//! pica_macros::include_pica!(mod render2d = "../../../corpus/pica/citro2d/source/render2d.v.pica");
//! assert_eq!(render2d::SHBIN, SHADER);
//! assert_eq!(render2d::VSH_FVEC_projMtx, 0x04);
//! assert!(render2d::HEADER.contains("#define VSH_ULEN_projMtx 4"));
//! ```
//!
//! The path is relative to the file that holds the call, as for `include_bytes!` (where the
//! compiler cannot tell that file, to the calling crate's `CARGO_MANIFEST_DIR`). An assembler
//! error stops the build at the macro call with the file, the line and picasso's message.

use std::path::{Path, PathBuf};

use proc_macro::TokenStream;
use proc_macro2::Span;
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token, Visibility};

/// Assembles a picasso source file at compile time.
///
/// - `include_pica!("shader.v.pica")` is an expression of type `&'static [u8]`: the SHBIN bytes
///   picasso writes for the file, 4-byte aligned.
/// - `include_pica!(pub mod shader = "shader.v.pica");` is an item: a module with
///   `SHBIN: &[u8]`, `HEADER: &str` (the text of picasso's `-h` header) and one `u32` constant
///   per `#define` of that header, named as picasso names them (`VSH_FVEC_projMtx`, ...).
#[proc_macro]
pub fn include_pica(input: TokenStream) -> TokenStream {
    let call = syn::parse_macro_input!(input as Call);
    match expand(&call) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// The two forms of a call.
struct Call {
    module: Option<(Visibility, syn::Ident)>,
    path: LitStr,
}

impl Parse for Call {
    fn parse(input: ParseStream) -> syn::Result<Call> {
        if input.peek(LitStr) {
            let path = input.parse()?;
            let _: Option<Token![,]> = input.parse()?;
            return Ok(Call { module: None, path });
        }
        let vis: Visibility = input.parse()?;
        let _: Token![mod] = input.parse()?;
        let name: syn::Ident = input.parse()?;
        let _: Token![=] = input.parse()?;
        let path = input.parse()?;
        let _: Option<Token![;]> = input.parse()?;
        Ok(Call { module: Some((vis, name)), path })
    }
}

/// Where the path of a call points: beside the calling file, else under the crate's manifest.
fn resolve(path: &str) -> PathBuf {
    let path = Path::new(path);
    if path.is_absolute() {
        return path.to_path_buf();
    }
    let caller = proc_macro::Span::call_site().local_file();
    let base = match caller.as_deref().and_then(Path::parent) {
        Some(dir) if caller.as_deref().is_some_and(Path::is_absolute) => dir.to_path_buf(),
        Some(dir) => std::env::current_dir().unwrap_or_default().join(dir),
        None => PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default()),
    };
    base.join(path)
}

fn expand(call: &Call) -> syn::Result<proc_macro2::TokenStream> {
    let span = call.path.span();
    let written = call.path.value();
    let path = resolve(&written);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| syn::Error::new(span, format!("cannot read {}: {e}", path.display())))?;
    let source = pica::asm::Source { name: &written, text: &text };
    let assembly = pica::asm::assemble(&[source], &pica::asm::Options::default())
        .map_err(|e| syn::Error::new(span, format!("{}:{}: {}", e.file, e.line, e.kind)))?;
    let bytes = assembly.to_bytes();
    let len = bytes.len();
    let literal = proc_macro2::Literal::byte_string(&bytes);
    let path_str = path.to_string_lossy().into_owned();
    // include_bytes! makes cargo rebuild the caller when the source changes.
    let aligned = quote! {{
        const _: &[u8] = include_bytes!(#path_str);
        #[repr(C, align(4))]
        struct Aligned<T: ?Sized>(T);
        static ALIGNED: &Aligned<[u8; #len]> = &Aligned(*#literal);
        &ALIGNED.0 as &'static [u8]
    }};
    let Some((vis, name)) = &call.module else { return Ok(aligned) };
    let header = &assembly.header;
    let constants = header_constants(header)
        .map_err(|line| syn::Error::new(span, format!("cannot read the -h header line {line:?}")))?;
    let consts = constants.iter().map(|(name, value)| {
        let ident = format_ident!("{}", name, span = Span::call_site());
        quote! { pub const #ident: u32 = #value; }
    });
    Ok(quote! {
        #[allow(non_upper_case_globals)]
        #vis mod #name {
            /// The SHBIN bytes picasso writes for the file, 4-byte aligned.
            pub static SHBIN: &[u8] = #aligned;
            /// The text of picasso's `-h` header for the file.
            pub const HEADER: &str = #header;
            #(#consts)*
        }
    })
}

/// The `#define NAME VALUE` lines of a picasso header (values `0x..`, decimal or `BIT(n)`);
/// the line it cannot read otherwise.
fn header_constants(header: &str) -> Result<Vec<(String, u32)>, String> {
    let mut out = Vec::new();
    for line in header.lines() {
        let Some(rest) = line.strip_prefix("#define ") else { continue };
        let (name, value) = rest.split_once(' ').ok_or_else(|| line.to_string())?;
        let value = value.trim();
        let parsed = if let Some(hex) = value.strip_prefix("0x") {
            u32::from_str_radix(hex, 16).ok()
        } else if let Some(bit) = value.strip_prefix("BIT(").and_then(|v| v.strip_suffix(')')) {
            bit.parse::<u32>().ok().and_then(|b| 1u32.checked_shl(b))
        } else {
            value.parse().ok()
        };
        out.push((name.to_string(), parsed.ok_or_else(|| line.to_string())?));
    }
    Ok(out)
}
