//! Paginated lists as typed streams: `tools/list`, `resources/list`, `resources/templates/list` and
//! `prompts/list` follow `nextCursor` page by page (spec: "Pagination", basic/utilities/pagination),
//! yielding one item at a time.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::connection::CallOptions;
use super::handle::Client;
use super::typed::parse_result;
use crate::error::{Error, Result};
use crate::model::{
    Cursor, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    Prompt, Resource, ResourceTemplate, Tool,
};

/// Most pages one list follows before it reports a server that never stops paginating.
pub(crate) const MAX_PAGES: usize = 10_000;

/// An item of a paginated list method: what the method is and how one page is read.
pub trait Listed: DeserializeOwned + Send + 'static {
    /// The list method (`tools/list`, ...).
    const METHOD: &'static str;
    /// The key of the page's item array (`tools`, ...).
    const KEY: &'static str;
    /// The page's result type.
    type Page: DeserializeOwned;
    /// The items of a page and the cursor of the next one.
    fn split(page: Self::Page) -> (Vec<Self>, Option<Cursor>);
}

macro_rules! listed {
    ($item:ty, $page:ty, $method:literal, $key:literal, $field:ident) => {
        impl Listed for $item {
            const METHOD: &'static str = $method;
            const KEY: &'static str = $key;
            type Page = $page;
            fn split(page: $page) -> (Vec<Self>, Option<Cursor>) {
                (page.$field, page.next_cursor)
            }
        }
    };
}

listed!(Tool, ListToolsResult, "tools/list", "tools", tools);
listed!(
    Resource,
    ListResourcesResult,
    "resources/list",
    "resources",
    resources
);
listed!(
    ResourceTemplate,
    ListResourceTemplatesResult,
    "resources/templates/list",
    "resourceTemplates",
    resource_templates
);
listed!(
    Prompt,
    ListPromptsResult,
    "prompts/list",
    "prompts",
    prompts
);

type PageFuture<T> = Pin<Box<dyn Future<Output = Result<(Vec<T>, Option<Cursor>)>> + Send>>;

/// The items of a paginated list, fetched page by page as they are consumed. A
/// [`futures_core::Stream`] of `Result<T>`; [`Pages::next`] reads it without a stream library.
/// After an error the stream ends.
pub struct Pages<T: Listed> {
    client: Client,
    buffered: VecDeque<T>,
    /// The cursor of the next page; `None` once the last page has been read.
    cursor: Option<Option<Cursor>>,
    pages: usize,
    fetching: Option<PageFuture<T>>,
}

impl<T: Listed> Pages<T> {
    pub(crate) fn new(client: Client) -> Self {
        Pages {
            client,
            buffered: VecDeque::new(),
            cursor: Some(None),
            pages: 0,
            fetching: None,
        }
    }

    /// The next item, fetching the next page when the current one is used up; `None` at the end.
    #[allow(clippy::should_implement_trait)]
    pub async fn next(&mut self) -> Option<Result<T>> {
        std::future::poll_fn(|cx| self.poll_item(cx)).await
    }

    /// Every remaining item.
    pub async fn collect(mut self) -> Result<Vec<T>> {
        let mut out = Vec::new();
        while let Some(item) = self.next().await {
            out.push(item?);
        }
        Ok(out)
    }

    fn poll_item(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<T>>> {
        loop {
            if let Some(item) = self.buffered.pop_front() {
                return Poll::Ready(Some(Ok(item)));
            }
            if self.fetching.is_none() {
                let Some(cursor) = self.cursor.take() else {
                    return Poll::Ready(None);
                };
                if self.pages == MAX_PAGES {
                    return Poll::Ready(Some(Err(Error::Protocol(format!(
                        "{}: the server kept paginating past {MAX_PAGES} pages",
                        T::METHOD
                    )))));
                }
                self.pages += 1;
                let client = self.client.clone();
                self.fetching = Some(Box::pin(async move {
                    let page = client.list_page::<T>(cursor.as_deref()).await?;
                    Ok(T::split(page))
                }));
            }
            let fetching = self.fetching.as_mut().expect("set above");
            let (items, next) = match fetching.as_mut().poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(r) => {
                    self.fetching = None;
                    match r {
                        Ok(page) => page,
                        Err(e) => return Poll::Ready(Some(Err(e))),
                    }
                }
            };
            self.buffered.extend(items);
            self.cursor = next.map(Some);
        }
    }
}

// No field is ever pinned in place (the page future is boxed), so moving a `Pages` is fine.
impl<T: Listed> Unpin for Pages<T> {}

impl<T: Listed> futures_core::Stream for Pages<T> {
    type Item = Result<T>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<T>>> {
        self.get_mut().poll_item(cx)
    }
}

impl Client {
    /// One page of a list method, typed: `Client::list_page::<Tool>(None)` is the first page of
    /// `tools/list`. A page that does not parse is an [`Error::Protocol`].
    pub async fn list_page<T: Listed>(&self, cursor: Option<&str>) -> Result<T::Page> {
        let raw = self
            .call(T::METHOD, cursor_params(cursor), &CallOptions::default())
            .await?;
        parse_result(T::METHOD, raw)
    }

    /// The tools, as a stream that follows `nextCursor`.
    pub fn list_tools(&self) -> Pages<Tool> {
        Pages::new(self.clone())
    }

    /// The resources, as a stream that follows `nextCursor`.
    pub fn list_resources(&self) -> Pages<Resource> {
        Pages::new(self.clone())
    }

    /// The resource templates, as a stream that follows `nextCursor`.
    pub fn list_resource_templates(&self) -> Pages<ResourceTemplate> {
        Pages::new(self.clone())
    }

    /// The prompts, as a stream that follows `nextCursor`.
    pub fn list_prompts(&self) -> Pages<Prompt> {
        Pages::new(self.clone())
    }

    /// Every tool, following `nextCursor` to the end.
    pub async fn list_all_tools(&self) -> Result<Vec<Tool>> {
        self.list_tools().collect().await
    }

    /// Every resource.
    pub async fn list_all_resources(&self) -> Result<Vec<Resource>> {
        self.list_resources().collect().await
    }

    /// Every resource template.
    pub async fn list_all_resource_templates(&self) -> Result<Vec<ResourceTemplate>> {
        self.list_resource_templates().collect().await
    }

    /// Every prompt.
    pub async fn list_all_prompts(&self) -> Result<Vec<Prompt>> {
        self.list_prompts().collect().await
    }
}

pub(crate) fn cursor_params(cursor: Option<&str>) -> Value {
    match cursor {
        Some(c) => serde_json::json!({ "cursor": c }),
        None => serde_json::json!({}),
    }
}
