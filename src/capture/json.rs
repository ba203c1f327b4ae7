//! JSON read with one value per key: an object that gives a key twice is
//! refused, not read as its last value (serde_json's `Value` keeps the
//! last; another reader may keep the first). RFC 8259 §4: "The names
//! within an object SHOULD be unique", and when they are not, "the
//! behavior of software that receives such an object is unpredictable".

use std::cell::RefCell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Why a text is not read: not JSON (serde_json's error), or a key given
/// twice (the key, and serde_json's error for its line and column, which
/// fall just after the key's second occurrence).
pub(crate) enum Refused {
    NotJson(serde_json::Error),
    Twice { key: String, at: serde_json::Error },
}

/// `text` as JSON, each object's keys once.
pub(crate) fn from_str(text: &str) -> Result<Value, Refused> {
    let twice = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let read = Strict { twice: &twice }
        .deserialize(&mut de)
        .and_then(|value| de.end().map(|()| value));
    read.map_err(|e| match twice.into_inner() {
        Some(key) => Refused::Twice { key, at: e },
        None => Refused::NotJson(e),
    })
}

/// A seed that reads any JSON value and notes the first key given twice.
#[derive(Clone, Copy)]
struct Strict<'a> {
    twice: &'a RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        // JSON has no NaN nor infinity: every number it holds is one.
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                let e = A::Error::custom(format!("the key {key:?} twice in one object"));
                *self.twice.borrow_mut() = Some(key);
                return Err(e);
            }
            let value = map.next_value_seed(self)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_twice_is_refused_and_named() {
        let Err(Refused::Twice { key, at }) = from_str(r#"{"a": {"url": 1, "url": 2}}"#) else {
            panic!("a key twice was read");
        };
        assert_eq!(key, "url");
        // Just after the second "url" (column 23, from 1).
        assert_eq!((at.line(), at.column()), (1, 22));
        // The same key in two objects is two keys.
        assert_eq!(
            from_str(r#"[{"a": 1}, {"a": 2.5, "b": [true, null, "x", -1]}]"#)
                .ok()
                .map(|v| v.to_string()),
            Some(r#"[{"a":1},{"a":2.5,"b":[true,null,"x",-1]}]"#.to_owned())
        );
        assert!(matches!(from_str("{\"a\": }"), Err(Refused::NotJson(_))));
        assert!(matches!(from_str("{} x"), Err(Refused::NotJson(_))));
    }
}
