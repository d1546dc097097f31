//! `#[tool]`: an MCP tool from a Rust function. Re-exported as `libmcp::tool`; see its docs there.
//!
//! The attribute turns `fn name(args...) -> R` into `fn name() -> libmcp::server::ToolDef`: the
//! parameters become the fields of an arguments struct whose derived JSON Schema is the tool's
//! `inputSchema`, the doc comment becomes its `description`, and the body runs through
//! `ToolDef::sync_fn` (or `ToolDef::async_fn` for an `async fn`), which also derives `outputSchema`
//! from `R`.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens};
use quote::{format_ident, quote};
use syn::parse::Parser;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, FnArg, Ident, ItemFn, Lit, LitStr, Meta, Pat, ReturnType, Type};

/// Declares an MCP tool from a function; documented at its re-export, `libmcp::tool`.
#[proc_macro_attribute]
pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let function = syn::parse_macro_input!(item as ItemFn);
    let options = match ToolOptions::parse(attr.into()) {
        Ok(o) => o,
        Err(e) => return e.to_compile_error().into(),
    };
    expand(options, function)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// What the attribute's arguments say: `#[tool(name = "...", title = "...", description = "...",
/// read_only, destructive, idempotent, open_world)]`.
#[derive(Default)]
struct ToolOptions {
    name: Option<LitStr>,
    title: Option<LitStr>,
    description: Option<LitStr>,
    hints: Vec<(Ident, &'static str)>,
}

impl ToolOptions {
    fn parse(tokens: Tokens) -> syn::Result<Self> {
        let mut options = ToolOptions::default();
        let parser = syn::meta::parser(|meta| {
            let hint = [
                ("read_only", "read_only_hint"),
                ("destructive", "destructive_hint"),
                ("idempotent", "idempotent_hint"),
                ("open_world", "open_world_hint"),
            ]
            .into_iter()
            .find(|(flag, _)| meta.path.is_ident(flag));
            if let Some((_, field)) = hint {
                options
                    .hints
                    .push((meta.path.get_ident().cloned().unwrap(), field));
                Ok(())
            } else if meta.path.is_ident("name") {
                options.name = Some(meta.value()?.parse()?);
                Ok(())
            } else if meta.path.is_ident("title") {
                options.title = Some(meta.value()?.parse()?);
                Ok(())
            } else if meta.path.is_ident("description") {
                options.description = Some(meta.value()?.parse()?);
                Ok(())
            } else {
                Err(meta.error(
                    "unknown #[tool] option; expected name, title, description, read_only, \
                     destructive, idempotent or open_world",
                ))
            }
        });
        parser.parse2(tokens)?;
        Ok(options)
    }
}

/// A parameter that becomes a field of the arguments struct.
struct Argument {
    ident: Ident,
    ty: Type,
    attrs: Vec<Tokens>,
}

/// How the handler's context reaches the function: not at all, by reference or by value.
enum ContextParam {
    None,
    Borrowed,
    Owned,
}

fn expand(options: ToolOptions, function: ItemFn) -> syn::Result<Tokens> {
    let sig = &function.sig;
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        return Err(syn::Error::new(
            sig.generics.span(),
            "a #[tool] function cannot be generic: its arguments need one concrete schema",
        ));
    }
    if let Some(c) = &sig.constness {
        return Err(syn::Error::new(
            c.span(),
            "a #[tool] function cannot be const",
        ));
    }
    if let ReturnType::Default = sig.output {
        return Err(syn::Error::new(
            sig.ident.span(),
            "a #[tool] function returns its result: String, Json<T>, CallToolResult, Reply, or a \
             Result of one of those",
        ));
    }
    let is_async = sig.asyncness.is_some();

    let mut context = ContextParam::None;
    let mut arguments = Vec::new();
    let mut body_inputs = Vec::new();
    for (index, input) in sig.inputs.iter().enumerate() {
        let FnArg::Typed(param) = input else {
            return Err(syn::Error::new(
                input.span(),
                "a #[tool] function is a free function: no self",
            ));
        };
        let mut param = param.clone();
        if let Some(reference) = context_type(&param.ty) {
            if index != 0 {
                return Err(syn::Error::new(
                    param.ty.span(),
                    "the RequestContext parameter comes first",
                ));
            }
            context = match (reference, is_async) {
                (true, true) => {
                    return Err(syn::Error::new(
                        param.ty.span(),
                        "an async tool takes its context by value (`ctx: RequestContext`): the \
                         call outlives the borrow",
                    ));
                }
                (true, false) => ContextParam::Borrowed,
                (false, _) => ContextParam::Owned,
            };
            body_inputs.push(FnArg::Typed(param));
            continue;
        }
        let Pat::Ident(pat) = &*param.pat else {
            return Err(syn::Error::new(
                param.pat.span(),
                "a #[tool] parameter is a plain name (it becomes an argument of the tool)",
            ));
        };
        let attrs = field_attributes(std::mem::take(&mut param.attrs))?;
        arguments.push(Argument {
            ident: pat.ident.clone(),
            ty: (*param.ty).clone(),
            attrs,
        });
        body_inputs.push(FnArg::Typed(param));
    }

    let vis = &function.vis;
    let ident = &sig.ident;
    let output = &sig.output;
    let asyncness = &sig.asyncness;
    let block = &function.block;
    let outer_attrs = &function.attrs;
    let name = options
        .name
        .clone()
        .unwrap_or_else(|| LitStr::new(&ident.to_string(), ident.span()));
    let description = options
        .description
        .clone()
        .or_else(|| doc_text(&function.attrs).map(|d| LitStr::new(&d, Span::call_site())));

    let mut definition = quote! { ::libmcp::model::Tool::new(#name) };
    if let Some(title) = &options.title {
        definition.extend(quote! { .title(#title) });
    }
    if let Some(description) = &description {
        definition.extend(quote! { .description(#description) });
    }
    if !options.hints.is_empty() {
        let fields = options.hints.iter().map(|(flag, field)| {
            let field = Ident::new(field, flag.span());
            quote! { #field: ::core::option::Option::Some(true), }
        });
        definition.extend(quote! {
            .annotations(::libmcp::model::ToolAnnotations {
                #(#fields)*
                ..::core::default::Default::default()
            })
        });
    }

    let field_defs = arguments.iter().map(|a| {
        let (ident, ty, attrs) = (&a.ident, &a.ty, &a.attrs);
        quote! { #(#attrs)* #ident: #ty, }
    });
    let fields: Vec<&Ident> = arguments.iter().map(|a| &a.ident).collect();
    let ctx = format_ident!("__libmcp_ctx");
    let (ctx_pattern, ctx_arg) = match context {
        ContextParam::None => (quote! { _ }, quote! {}),
        ContextParam::Borrowed | ContextParam::Owned => (quote! { #ctx }, quote! { #ctx, }),
    };
    let call = if is_async {
        quote! {
            ::libmcp::server::ToolDef::async_fn(
                definition,
                |#ctx_pattern: ::libmcp::server::RequestContext, __LibmcpArguments { #(#fields),* }: __LibmcpArguments| {
                    __libmcp_body(#ctx_arg #(#fields),*)
                },
            )
        }
    } else {
        let ctx_arg = match context {
            ContextParam::Owned => quote! { ::core::clone::Clone::clone(#ctx), },
            _ => ctx_arg,
        };
        quote! {
            ::libmcp::server::ToolDef::sync_fn(
                definition,
                |#ctx_pattern: &::libmcp::server::RequestContext, __LibmcpArguments { #(#fields),* }: __LibmcpArguments| {
                    __libmcp_body(#ctx_arg #(#fields),*)
                },
            )
        }
    };

    Ok(quote! {
        #(#outer_attrs)*
        #vis fn #ident() -> ::libmcp::server::ToolDef {
            #[derive(::libmcp::__private::serde::Deserialize, ::libmcp::__private::schemars::JsonSchema)]
            #[serde(crate = "::libmcp::__private::serde")]
            #[schemars(crate = "::libmcp::__private::schemars")]
            struct __LibmcpArguments { #(#field_defs)* }

            #asyncness fn __libmcp_body(#(#body_inputs),*) #output #block

            let definition = #definition;
            #call
        }
    })
}

/// `Some(true)` if `ty` is `&RequestContext`, `Some(false)` if it is `RequestContext` (by its last
/// path segment, so `libmcp::server::RequestContext` counts too), `None` otherwise.
fn context_type(ty: &Type) -> Option<bool> {
    let (reference, ty) = match ty {
        Type::Reference(r) => (true, &*r.elem),
        other => (false, other),
    };
    match ty {
        Type::Path(p) if p.path.segments.last()?.ident == "RequestContext" => Some(reference),
        _ => None,
    }
}

/// A parameter's attributes as attributes of its field: `#[arg(description = "...")]` becomes the
/// field's schema description; `#[serde(...)]` and `#[schemars(...)]` pass through; anything else
/// is an error (attributes on parameters have no other meaning here).
fn field_attributes(attrs: Vec<Attribute>) -> syn::Result<Vec<Tokens>> {
    let mut out = Vec::new();
    for attr in attrs {
        if attr.path().is_ident("serde") || attr.path().is_ident("schemars") {
            out.push(quote! { #attr });
        } else if attr.path().is_ident("arg") {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("description") {
                    let text: LitStr = meta.value()?.parse()?;
                    out.push(quote! { #[schemars(description = #text)] });
                    Ok(())
                } else {
                    Err(meta.error("unknown #[arg] option; expected description"))
                }
            })?;
        } else {
            return Err(syn::Error::new(
                attr.span(),
                "a #[tool] parameter takes #[arg(description = \"...\")], #[serde(...)] or \
                 #[schemars(...)]",
            ));
        }
    }
    Ok(out)
}

/// The doc comment's text: the `///` lines, each less its first space, joined and trimmed.
fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(l) => match &l.lit {
                    Lit::Str(s) => Some(s.value()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .map(|line| line.strip_prefix(' ').unwrap_or(&line).to_owned())
        .collect();
    let text = lines.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(attr: Tokens, function: ItemFn) -> String {
        match ToolOptions::parse(attr).and_then(|o| expand(o, function)) {
            Ok(tokens) => panic!("expanded: {tokens}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn what_cannot_be_a_tool_is_refused_with_the_reason() {
        let cases: Vec<(Tokens, ItemFn, &str)> = vec![
            (
                quote! {},
                syn::parse_quote! { fn t<T>(x: T) -> String { todo!() } },
                "cannot be generic",
            ),
            (
                quote! {},
                syn::parse_quote! { fn t(x: i64) { } },
                "returns its result",
            ),
            (
                quote! {},
                syn::parse_quote! { async fn t(ctx: &RequestContext) -> String { todo!() } },
                "by value",
            ),
            (
                quote! {},
                syn::parse_quote! { fn t(a: i64, ctx: &RequestContext) -> String { todo!() } },
                "comes first",
            ),
            (
                quote! {},
                syn::parse_quote! { fn t((a, b): (i64, i64)) -> String { todo!() } },
                "plain name",
            ),
            (
                quote! {},
                syn::parse_quote! { fn t(#[doc = "x"] a: i64) -> String { todo!() } },
                "#[arg(description",
            ),
            (
                quote! { nmae = "x" },
                syn::parse_quote! { fn t() -> String { todo!() } },
                "unknown #[tool] option",
            ),
        ];
        for (attr, function, expected) in cases {
            let error = error_of(attr, function);
            assert!(error.contains(expected), "{error:?} lacks {expected:?}");
        }
    }

    #[test]
    fn the_description_is_the_doc_comment_less_one_leading_space() {
        let function: ItemFn = syn::parse_quote! {
            /// First line.
            ///
            ///  Indented.
            fn t() -> String { todo!() }
        };
        assert_eq!(
            doc_text(&function.attrs).as_deref(),
            Some("First line.\n\n Indented.")
        );
        let bare: ItemFn = syn::parse_quote! { fn t() -> String { todo!() } };
        assert_eq!(doc_text(&bare.attrs), None);
    }
}
