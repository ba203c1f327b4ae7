//! How the fields of a [`RequestSpec`](crate::RequestSpec) that are not
//! plain strings are read and written: the secrets (never quoted back in an
//! error message, and written out in full, since a request file has to hold
//! them), and `version`, which is `"1.0"` or absent and nothing else.

use std::fmt;

use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::{Deserialize, Serializer};

use crate::pipeline::credentials::Secret;

pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

/// `"version": "1.0"` is `true`, no version (or `null`) is `false`.
pub(crate) mod version {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(send: &bool, s: S) -> Result<S::Ok, S::Error> {
        if *send {
            s.serialize_str("1.0")
        } else {
            s.serialize_none()
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        match Option::<String>::deserialize(d)? {
            None => Ok(false),
            Some(v) if v == "1.0" => Ok(true),
            Some(v) => Err(de::Error::invalid_value(
                Unexpected::Str(&v),
                &"\"1.0\" (or no \"version\" field, to send no oauth_version)",
            )),
        }
    }
}

/// An optional string whose value never appears in an error message: serde's
/// own messages quote a number or a boolean found where a string was
/// expected, and a secret must not be quoted back.
pub(crate) fn secret<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Secret>, D::Error> {
    struct SecretVisitor;

    impl SecretVisitor {
        fn refuse<E: de::Error>(&self, what: &str) -> E {
            E::invalid_type(Unexpected::Other(what), self)
        }
    }

    impl<'de> Visitor<'de> for SecretVisitor {
        type Value = Option<Secret>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(Secret::new(v)))
        }

        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            Ok(Some(Secret::new(v)))
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Err(self.refuse("boolean"))
        }

        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Err(self.refuse("number"))
        }

        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Err(self.refuse("number"))
        }

        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Err(self.refuse("number"))
        }

        fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Self::Value, E> {
            Err(self.refuse("bytes"))
        }
    }

    d.deserialize_any(SecretVisitor)
}

/// Writes a secret's text: a request file has to hold it.
pub(crate) fn expose<S: Serializer>(secret: &Option<Secret>, s: S) -> Result<S::Ok, S::Error> {
    match secret {
        Some(secret) => s.serialize_some(secret.expose()),
        None => s.serialize_none(),
    }
}

/// A body that is not form parameters: a JSON string, kept as its UTF-8
/// bytes (a body given otherwise, from a file, may be any bytes; it is
/// written back only when it is UTF-8).
pub(crate) mod body {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(
        body: &Option<Vec<u8>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match body {
            Some(bytes) => match std::str::from_utf8(bytes) {
                Ok(text) => s.serialize_some(text),
                Err(e) => Err(serde::ser::Error::custom(format_args!(
                    "the body is not UTF-8 (invalid byte at offset {}), so JSON cannot hold it",
                    e.valid_up_to()
                ))),
            },
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Vec<u8>>, D::Error> {
        Ok(Option::<String>::deserialize(d)?.map(String::into_bytes))
    }
}

/// An optional field whose value is one of a few words (`transmission`,
/// `body_hash`, `body_hash_algorithm`, `provider`): read and written by the
/// type's own `FromStr` and `Display`, the words of the flags and the page.
pub(crate) mod named {
    use std::fmt::Display;
    use std::str::FromStr;

    use super::*;
    use crate::Error;

    pub(crate) fn serialize<T: Display, S: Serializer>(
        value: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.collect_str(v),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, T: FromStr<Err = Error>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        match Option::<String>::deserialize(d)? {
            None => Ok(None),
            Some(v) => v.parse().map(Some).map_err(de::Error::custom),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::outgoing::spec::tests::MINIMAL;
    use crate::RequestSpec;

    /// An error and its causes, as a reporter prints them.
    pub(crate) fn chain(e: &(dyn std::error::Error + 'static)) -> String {
        crate::text::error_chain(e)
    }

    #[test]
    fn errors_name_the_spot_but_never_a_secret() {
        for (json, line, column) in [
            ("{\"method\": \"GET\",\n \"url\": \"https://h/\"", 2, 20),
            ("{\"method\": \"GET\", \"url\": \"https://h/\"}", 1, 38),
            ("{\"method\": \"GET\", \"url\": \"https://h/\", \"consumer_key\": \"k\", \"consumer_secret\": 987654321}", 1, 88),
            ("{\"method\": \"GET\", \"url\": \"https://h/\", \"consumer_key\": \"k\", \"token_secret\": true}", 1, 80),
        ] {
            let err = RequestSpec::from_json(json).unwrap_err();
            assert_eq!(err.line_column(), Some((line, column)), "{err}");
            let shown = chain(&err);
            assert!(!shown.contains("987654321") && !shown.contains("true"), "{shown}");
        }
        let err =
            RequestSpec::from_json(&MINIMAL.replace('}', ", \"version\": \"1.1\"}")).unwrap_err();
        assert!(
            chain(&err).contains("invalid value: string \"1.1\""),
            "{err}"
        );
    }
}
