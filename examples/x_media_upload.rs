//! X's chunked media upload (`POST https://upload.twitter.com/1.1/media/upload.json`)
//! through the middleware: `INIT`, one `APPEND` per segment, `FINALIZE`, then
//! `STATUS` until processing is done.
//!
//! What users most often get wrong is what is signed. `INIT` and `FINALIZE`
//! send `application/x-www-form-urlencoded` bodies, whose parameters are
//! signed. `APPEND` sends `multipart/form-data`, whose fields (`command`,
//! `media_id`, `segment_index`, `media`) are **not** signed (RFC 5849
//! §3.4.1.3.1): only the query and the `oauth_*` parameters are. The
//! middleware does this by itself: it reads a body only when it is a form.
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
    encode_pairs,
    middleware::{client_builder, OAuth1Middleware},
    Credentials, Signer,
};
use reqwest_middleware::{ClientBuilder, ClientWithMiddleware};
use serde_json::Value;

/// X's v1.1 upload endpoint.
pub const UPLOAD_URL: &str = "https://upload.twitter.com/1.1/media/upload.json";

/// The size of each `APPEND`: X takes segments of up to 5 MB.
pub const SEGMENT: usize = 4 * 1024 * 1024;

/// How many times `STATUS` is asked before giving up.
const MAX_POLLS: usize = 60;

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// Uploads `media` to `url` in segments of `segment` bytes; returns the last
/// answer (`FINALIZE`'s, or the last `STATUS`), whose `media_id_string` goes
/// in a post's `media.media_ids`.
pub async fn upload(
    client: &ClientWithMiddleware,
    url: &str,
    media: &[u8],
    media_type: &str,
    segment: usize,
) -> Result<Value> {
    let total = media.len().to_string();
    let init = form(
        client,
        url,
        &[
            ("command", "INIT"),
            ("total_bytes", &total),
            ("media_type", media_type),
        ],
    )
    .await?;
    let id = init["media_id_string"]
        .as_str()
        .ok_or("INIT answered no media_id_string")?
        .to_owned();

    for (index, chunk) in media.chunks(segment.max(1)).enumerate() {
        let index = index.to_string();
        let (content_type, body) = multipart(
            &[
                ("command", "APPEND"),
                ("media_id", &id),
                ("segment_index", &index),
            ],
            chunk,
        );
        let response = client
            .post(url)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await?;
        check(response).await?;
    }

    let mut answer = form(client, url, &[("command", "FINALIZE"), ("media_id", &id)]).await?;
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
        answer = check(client.get(status).send().await?).await?;
    }
    Err(format!("still processing after {MAX_POLLS} STATUS requests").into())
}

/// A form-encoded `POST` (its parameters signed), and its JSON answer.
async fn form(client: &ClientWithMiddleware, url: &str, params: &[(&str, &str)]) -> Result<Value> {
    let response = client
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(encode_pairs(params.iter().copied()))
        .send()
        .await?;
    check(response).await
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
