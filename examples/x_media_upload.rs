//! X's chunked media upload, v2 (`https://api.x.com/2/media/upload`),
//! through the middleware: `initialize`, one `append` per segment,
//! `finalize`, then `STATUS` until processing is done (docs.x.com, "Chunked
//! media upload"; X's own sample, `media_upload_v2.py`).
//!
//! What users most often get wrong is what is signed. `initialize` sends a
//! JSON body and `append` a `multipart/form-data` one: neither is a form, so
//! neither is signed (RFC 5849 §3.4.1.3.1); only the query and the
//! `oauth_*` parameters are. The middleware does this by itself: it reads a
//! body only when it is a form.
//!
//! ```sh
//! export OAUTH_CONSUMER_KEY=... OAUTH_CONSUMER_SECRET=... OAUTH_TOKEN=... OAUTH_TOKEN_SECRET=...
//! cargo run --features reqwest --example x_media_upload -- video.mp4 video/mp4
//! ```
//!
//! `X_UPLOAD_URL` replaces the endpoint (the tests point it at a loopback
//! provider).

use std::error::Error;
use std::time::Duration;

use oauth1_signer::{
    client::{client_builder, OAuth1Middleware},
    Credentials, Signer,
};
use reqwest_middleware::{ClientBuilder, ClientWithMiddleware};
use serde_json::{json, Value};

/// X's v2 upload endpoint.
pub const UPLOAD_URL: &str = "https://api.x.com/2/media/upload";

/// The size of each `append`: X takes segments of up to 5 MB.
pub const SEGMENT: usize = 4 * 1024 * 1024;

/// How many times `STATUS` is asked before giving up.
const MAX_POLLS: usize = 60;

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// Uploads `media` under `url` (`.../2/media/upload`) in segments of
/// `segment` bytes; returns the last answer's `data` (`finalize`'s, or the
/// last `STATUS`'s), whose `id` goes in a post's `media.media_ids`.
pub async fn upload(
    client: &ClientWithMiddleware,
    url: &str,
    media: &[u8],
    media_type: &str,
    segment: usize,
) -> Result<Value> {
    let init = json!({"media_type": media_type, "total_bytes": media.len(),
                      "media_category": "tweet_video"});
    let response = client
        .post(format!("{url}/initialize"))
        .header("content-type", "application/json")
        .body(init.to_string())
        .send()
        .await?;
    let init = check(response).await?;
    let id = init["data"]["id"]
        .as_str()
        .ok_or("initialize answered no data.id")?
        .to_owned();

    for (index, chunk) in media.chunks(segment.max(1)).enumerate() {
        let index = index.to_string();
        let (content_type, body) = multipart(&[("segment_index", &index)], chunk);
        let response = client
            .post(format!("{url}/{id}/append"))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await?;
        check(response).await?;
    }

    let response = client.post(format!("{url}/{id}/finalize")).send().await?;
    let mut answer = check(response).await?["data"].take();
    for _ in 0..MAX_POLLS {
        let info = &answer["processing_info"];
        match info["state"].as_str() {
            None | Some("succeeded") => return Ok(answer),
            Some("failed") => return Err(format!("processing failed: {info}").into()),
            Some(_) => {}
        }
        let wait = info["check_after_secs"].as_u64().unwrap_or(1);
        tokio::time::sleep(Duration::from_secs(wait)).await;
        let status = format!("{url}?command=STATUS&media_id={id}");
        answer = check(client.get(status).send().await?).await?["data"].take();
    }
    Err(format!("still processing after {MAX_POLLS} STATUS requests").into())
}

/// The JSON of a 2xx answer (`null` for an empty one), or an error with X's.
async fn check(response: reqwest::Response) -> Result<Value> {
    let status = response.status();
    let body = response.bytes().await?;
    if !status.is_success() {
        return Err(format!("{status}: {}", String::from_utf8_lossy(&body)).into());
    }
    if body.is_empty() {
        return Ok(Value::Null);
    }
    Ok(serde_json::from_slice(&body)?)
}

/// A `multipart/form-data` body of text fields and the `media` segment
/// (reqwest's `multipart` feature builds the same). The boundary is fixed
/// here for brevity; a real client picks one the segment does not contain.
fn multipart(fields: &[(&str, &str)], media: &[u8]) -> (String, Vec<u8>) {
    const BOUNDARY: &str = "oauth1-signer-x-media-upload-boundary";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"media\"; filename=\"blob\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(media);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={BOUNDARY}"), body)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    let env = |name: &str| std::env::var(name).map_err(|_| format!("set {name}"));
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(media_type)) = (args.next(), args.next()) else {
        return Err("usage: x_media_upload FILE MEDIA_TYPE (video/mp4, image/png, ...)".into());
    };
    let credentials = Credentials::new(env("OAUTH_CONSUMER_KEY")?, env("OAUTH_CONSUMER_SECRET")?)
        .with_token(env("OAUTH_TOKEN")?, env("OAUTH_TOKEN_SECRET")?);
    // Redirects left to the middleware, which signs each hop afresh.
    let client = ClientBuilder::new(client_builder().build()?)
        .with(OAuth1Middleware::new(Signer::new(credentials)))
        .build();
    let url = std::env::var("X_UPLOAD_URL").unwrap_or_else(|_| UPLOAD_URL.into());
    let media = std::fs::read(&path)?;
    let answer = upload(&client, &url, &media, &media_type, SEGMENT).await?;
    println!("{answer}");
    Ok(())
}
