//! `authorize`: the PIN-based three-legged flow in the terminal (RFC 5849 §2;
//! X's "Obtaining user access tokens"), saving the tokens to a profile; and
//! `accounts`: the saved profiles, without secrets, and which is the default.

use std::io::{BufRead as _, Write as _};
use std::time::Duration;

use clap::Args;
use oauth1_signer::{
    flow::{
        authorize_url, request_temporary_credentials, request_token_credentials, Endpoints,
        FlowError,
    },
    pipeline::RequestUrl,
    Credentials,
};

use crate::caret::{printable, Caret};
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
name any other provider's (absolute http or https URLs, checked before anything is sent; a
fragment in --authorize-url stays after the oauth_token query). The profiles file is checked to be
writable before the flow starts, and changed under a lock, so two logins at once both keep their
profile. Text from the provider (the screen_name) is printed with control characters escaped.";

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

    /// Delete profile NAME (its secrets with it); if it was the default,
    /// there is none until `--default` names one
    #[arg(long, value_name = "NAME", conflicts_with = "default")]
    remove: Option<String>,
}

/// A failed step of the flow, saying which step and at which URL.
fn flow_failure(step: &str, url: &str, e: FlowError) -> Failure {
    let message = format!(
        "{step} ({}): {}",
        printable(url.as_bytes()),
        crate::failure::chain(&e)
    );
    match e {
        // The provider said no: like a non-2xx answer to `request`.
        FlowError::Provider { .. } => Failure::Io(message),
        _ => Failure::input(message),
    }
}

/// `url`, given as `flag`, if it is an absolute http or https URL the
/// signer can sign: a usage error naming the flag (and a caret under the
/// spot) before anything is sent, not a network error after.
fn check_url(flag: &str, url: &str) -> Result<(), Failure> {
    RequestUrl::parse(url).map(drop).map_err(|e| {
        let caret = e
            .offset()
            .map(|(_, at)| Caret::new(url.as_bytes(), at, e.span_len()));
        Failure::Input(format!("{flag}: {e}"), caret)
    })
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
    check_url("--request-token-url", &endpoints.request_token)?;
    check_url("--authorize-url", &endpoints.authorize)?;
    check_url("--access-token-url", &endpoints.access_token)?;
    // Fail before the flow, not after the PIN, if the profiles cannot be
    // written: by then the provider has issued a token.
    let path = Profiles::check_writable()?;

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Io(format!("cannot start the HTTP client: {e}")))?;
    // Redirects are followed by the flow, signed afresh for each URL.
    let client = oauth1_signer::client::client_builder()
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
        .map_err(|e| {
            flow_failure(
                "temporary credentials, --request-token-url",
                &endpoints.request_token,
                e,
            )
        })?;
    let url = authorize_url(&endpoints.authorize, temporary.token());
    let mut stderr = std::io::stderr().lock();
    let _ = write!(
        stderr,
        "Open this URL in a browser, sign in and authorize the app:\n\n  {}\n\nthen type the PIN it shows: ",
        printable(url.as_bytes())
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
        .map_err(|e| {
            flow_failure(
                "token credentials, --access-token-url",
                &endpoints.access_token,
                e,
            )
        })?;

    let screen_name = tokens.param("screen_name").map(str::to_owned);
    let user_id = tokens.param("user_id").map(str::to_owned);
    let name = args
        .profile
        .clone()
        .or_else(|| screen_name.clone())
        .or_else(|| user_id.clone())
        .unwrap_or_else(|| "default".into());
    let profile = Profile {
        consumer_key: key,
        consumer_secret: consumer.consumer_secret().expose().to_owned(),
        token: tokens.token().to_owned(),
        token_secret: tokens.secret().expose().to_owned(),
        user_id,
        screen_name: screen_name.clone(),
    };
    // Merged into the file as it is now: another login may have saved since.
    Profiles::update(&path, |profiles| {
        profiles.profiles.insert(name.clone(), profile);
        if profiles
            .default
            .as_ref()
            .is_none_or(|d| !profiles.profiles.contains_key(d))
        {
            profiles.default = Some(name.clone());
        }
        Ok(())
    })?;
    let who = screen_name.map_or_else(String::new, |s| format!(" as @{}", printable(s.as_bytes())));
    emit(
        format!(
            "authorized{who}; saved as profile \"{}\" in {}\n",
            printable(name.as_bytes()),
            printable(path.as_os_str().as_encoded_bytes())
        )
        .as_bytes(),
    )
}

pub(crate) fn accounts(args: &AccountsArgs) -> Result<(), Failure> {
    let profiles = match (&args.default, &args.remove) {
        (Some(name), _) => {
            let path = crate::profile::profiles_path()?;
            Profiles::update(&path, |profiles| {
                profiles.get(Some(name))?;
                profiles.default = Some(name.clone());
                Ok(profiles.clone())
            })?
        }
        (None, Some(name)) => {
            let path = crate::profile::profiles_path()?;
            let profiles = Profiles::update(&path, |profiles| {
                if profiles.profiles.remove(name).is_none() {
                    return Err(Failure::Io(format!(
                        "no profile named {name:?} to remove (`oauth1 accounts` lists them)"
                    )));
                }
                if profiles.default.as_ref() == Some(name) {
                    profiles.default = None;
                }
                Ok(profiles.clone())
            })?;
            let _ = writeln!(
                std::io::stderr(),
                "removed profile {name:?}{}",
                if profiles.default.is_none() && !profiles.profiles.is_empty() {
                    "; there is no default now (`oauth1 accounts --default NAME`)"
                } else {
                    ""
                }
            );
            profiles
        }
        (None, None) => Profiles::load()?.0,
    };
    if profiles.profiles.is_empty() {
        return emit(b"no saved accounts (log in with `oauth1 authorize`)\n");
    }
    emit(list(&profiles).as_bytes())
}

/// One line per profile, the default marked `*`; every field from outside
/// (names, the provider's screen_name and user_id) escaped.
fn list(profiles: &Profiles) -> String {
    let mut out = String::new();
    for (name, p) in &profiles.profiles {
        let mark = if profiles.default.as_deref() == Some(name) {
            "*"
        } else {
            " "
        };
        out.push_str(&format!("{mark} {}", printable(name.as_bytes())));
        if let Some(s) = &p.screen_name {
            out.push_str(&format!("  @{}", printable(s.as_bytes())));
        }
        if let Some(id) = &p.user_id {
            out.push_str(&format!("  user_id={}", printable(id.as_bytes())));
        }
        out.push_str(&format!(
            "  consumer_key={}\n",
            printable(p.consumer_key.as_bytes())
        ));
    }
    out
}
