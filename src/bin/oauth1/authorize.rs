//! `authorize`: the PIN-based three-legged flow in the terminal (RFC 5849 §2;
//! X's "Obtaining user access tokens"), saving the tokens to a profile; and
//! `accounts`: the saved profiles, without secrets, and which is the default.

use std::io::{BufRead as _, Write as _};
use std::time::Duration;

use clap::Args;
use oauth1_signer::{
    authorize_url, request_temporary_credentials, request_token_credentials, Credentials,
    Endpoints, FlowError,
};

use crate::flags::ConsumerFlags;
use crate::profile::{Profile, Profiles};
use crate::{emit, Failure};

pub(crate) const AUTHORIZE_HELP: &str = "\
Runs the PIN flow: gets temporary credentials (oauth_callback=oob), prints the URL to open, reads
the PIN from standard input, exchanges it for an access token, and saves the four credentials as a
profile (named after the account's screen_name unless --profile is given) in profiles.json, in
$OAUTH1_CONFIG_DIR or the platform's configuration directory, readable by you only. The first
profile saved is the default; `oauth1 accounts --default NAME` changes it.

The X API's endpoints are the default; --request-token-url, --authorize-url and --access-token-url
name any other provider's.";

#[derive(Args, Debug)]
pub(crate) struct AuthorizeArgs {
    /// The client credentials
    #[command(flatten)]
    consumer: ConsumerFlags,

    /// Save the tokens as this profile [default: the account's screen_name]
    #[arg(long, value_name = "NAME")]
    profile: Option<String>,

    /// Temporary-credentials endpoint (RFC 5849 §2.1)
    #[arg(long, value_name = "URL")]
    request_token_url: Option<String>,

    /// Resource-owner authorization endpoint (§2.2)
    #[arg(long, value_name = "URL")]
    authorize_url: Option<String>,

    /// Token-credentials endpoint (§2.3)
    #[arg(long, value_name = "URL")]
    access_token_url: Option<String>,
}

#[derive(Args, Debug)]
pub(crate) struct AccountsArgs {
    /// Make profile NAME the default
    #[arg(long, value_name = "NAME")]
    default: Option<String>,
}

fn flow_failure(e: FlowError) -> Failure {
    match e {
        // The provider said no: like a non-2xx answer to `request`.
        FlowError::Provider { .. } => Failure::Io(e.to_string()),
        _ => Failure::input(e.to_string()),
    }
}

pub(crate) fn authorize(args: &AuthorizeArgs) -> Result<(), Failure> {
    let given = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
    let key = given(&args.consumer.consumer_key).ok_or_else(|| {
        Failure::input("no consumer key: pass --consumer-key KEY or set OAUTH_CONSUMER_KEY")
    })?;
    let secret = given(&args.consumer.consumer_secret).ok_or_else(|| {
        Failure::input(
            "no consumer secret: pass --consumer-secret SECRET or set OAUTH_CONSUMER_SECRET",
        )
    })?;
    let consumer = Credentials::new(key.as_str(), secret);
    let x = Endpoints::x();
    let endpoints = Endpoints {
        request_token: args.request_token_url.clone().unwrap_or(x.request_token),
        authorize: args.authorize_url.clone().unwrap_or(x.authorize),
        access_token: args.access_token_url.clone().unwrap_or(x.access_token),
    };
    // Fail before the flow, not after the PIN, if the profiles cannot be read.
    let (mut profiles, path) = Profiles::load()?;

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Io(format!("cannot start the HTTP client: {e}")))?;
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .map_err(|e| Failure::Io(format!("cannot start the HTTP client: {e}")))?;
    let temporary = runtime
        .block_on(request_temporary_credentials(
            &client,
            &consumer,
            &endpoints.request_token,
            "oob",
        ))
        .map_err(flow_failure)?;
    let url = authorize_url(&endpoints.authorize, temporary.token());
    let mut stderr = std::io::stderr().lock();
    let _ = write!(
        stderr,
        "Open this URL in a browser, sign in and authorize the app:\n\n  {url}\n\nthen type the PIN it shows: "
    );
    let _ = stderr.flush();
    drop(stderr);
    let mut pin = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut pin)
        .map_err(|e| Failure::Io(format!("cannot read the PIN: {e}")))?;
    let pin = pin.trim();
    if pin.is_empty() {
        return Err(Failure::input("no PIN given"));
    }
    let tokens = runtime
        .block_on(request_token_credentials(
            &client,
            &consumer,
            &temporary,
            &endpoints.access_token,
            pin,
        ))
        .map_err(flow_failure)?;

    let screen_name = tokens.param("screen_name").map(str::to_owned);
    let user_id = tokens.param("user_id").map(str::to_owned);
    let name = args
        .profile
        .clone()
        .or_else(|| screen_name.clone())
        .or_else(|| user_id.clone())
        .unwrap_or_else(|| "default".into());
    profiles.profiles.insert(
        name.clone(),
        Profile {
            consumer_key: key,
            consumer_secret: consumer.consumer_secret().expose().to_owned(),
            token: tokens.token().to_owned(),
            token_secret: tokens.secret().expose().to_owned(),
            user_id,
            screen_name: screen_name.clone(),
        },
    );
    if profiles
        .default
        .as_ref()
        .is_none_or(|d| !profiles.profiles.contains_key(d))
    {
        profiles.default = Some(name.clone());
    }
    profiles.save(&path)?;
    let who = screen_name.map_or_else(String::new, |s| format!(" as @{s}"));
    emit(
        format!(
            "authorized{who}; saved as profile {name:?} in {}\n",
            path.display()
        )
        .as_bytes(),
    )
}

pub(crate) fn accounts(args: &AccountsArgs) -> Result<(), Failure> {
    let (mut profiles, path) = Profiles::load()?;
    if let Some(name) = &args.default {
        profiles.get(Some(name))?;
        profiles.default = Some(name.clone());
        profiles.save(&path)?;
    }
    if profiles.profiles.is_empty() {
        return emit(b"no saved accounts (log in with `oauth1 authorize`)\n");
    }
    let mut out = String::new();
    for (name, p) in &profiles.profiles {
        let mark = if profiles.default.as_deref() == Some(name) {
            "*"
        } else {
            " "
        };
        out.push_str(&format!("{mark} {name}"));
        if let Some(s) = &p.screen_name {
            out.push_str(&format!("  @{s}"));
        }
        if let Some(id) = &p.user_id {
            out.push_str(&format!("  user_id={id}"));
        }
        out.push_str(&format!("  consumer_key={}\n", p.consumer_key));
    }
    emit(out.as_bytes())
}
