//! Signs the X developer docs' "Creating a signature" request and prints
//! every stage, so the pipeline can be read end to end.
//!
//! ```sh
//! cargo run --example x_docs_stages
//! ```

use oauth1_signer::{Credentials, Error, OAuthRequest, Signer};

fn main() -> Result<(), Error> {
    // The credentials, nonce and timestamp printed in the X docs (public test
    // values, not real secrets).
    let signer = Signer::builder(
        Credentials::new(
            "xvz1evFS4wEEPTGEFPHBog",
            "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
        )
        .with_token(
            "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
            "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
        ),
    )
    .with_nonce("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg")
    .with_timestamp("1318622958")
    .build()?;
    let request =
        OAuthRequest::post("https://api.x.com/1.1/statuses/update.json?include_entities=true")
            .form_body(
                b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
            );

    let trace = signer.trace(&request)?;
    println!("collected parameters (query, protocol, body):");
    for (_, name, value) in &trace.collected_params {
        println!(
            "  {} = {}",
            String::from_utf8_lossy(name),
            String::from_utf8_lossy(value)
        );
    }
    println!(
        "normalized parameters:\n  {}",
        trace.normalized_params.replace('&', "\n  &")
    );
    println!("base string URI:\n  {}", trace.base_string_uri);
    println!("signature base string (broken at each '&'):");
    for (i, part) in trace.base_string.splitn(3, '&').enumerate() {
        println!(
            "  {}{}",
            if i > 0 { "&" } else { "" },
            part.replace("%26", "%26\n     ")
        );
    }
    println!("signature:\n  {}", trace.signature);
    println!("Authorization:\n  {}", trace.authorization_header);
    Ok(())
}
