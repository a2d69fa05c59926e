use super::*;

fn push() -> Loaded {
    rules::load("push", &[]).unwrap()
}

fn ask(asker: &mut Asker, text: &str) -> Value {
    asker
        .handle(&serde_json::from_str(text).unwrap())
        .expect("a rules or query message")
}

#[test]
fn a_meld_question_lists_every_reading() {
    let mut a = Asker::new(Some(push()), Vec::new(), false);
    let r = ask(
        &mut a,
        r#"{"type":"query","id":3,"question":"meld","cards":["7H","8H","JK"]}"#,
    );
    assert_eq!(r["type"], "answer");
    assert_eq!(r["id"], 3);
    assert_eq!(r["valid"], true);
    assert_eq!(r["readings"].as_array().unwrap().len(), 2);
    let r = ask(
        &mut a,
        r#"{"type":"query","question":"meld","cards":["7S","7S","7H"]}"#,
    );
    assert_eq!(r["valid"], false);
}

#[test]
fn a_rules_message_changes_the_rules_and_readings_apply_over_it() {
    let mut a = Asker::new(None, Vec::new(), false);
    let q = r#"{"type":"query","question":"meld","cards":["7S","7S","7H"]}"#;
    assert_eq!(ask(&mut a, q)["type"], "error");
    assert_eq!(
        ask(&mut a, r#"{"type":"rules","rules":"push"}"#)["type"],
        "ok"
    );
    assert_eq!(ask(&mut a, q)["valid"], false);
    let id = DisputeId::from_id("set-duplicate-suits").unwrap();
    let mut b = Asker::new(None, vec![(id, "allowed".into())], false);
    let msg = json!({"type": "rules", "rules": crate::suite::protocol::rules_json(&push())});
    assert_eq!(b.handle(&msg).unwrap()["type"], "ok");
    assert_eq!(ask(&mut b, q)["valid"], true);
    assert_eq!(
        ask(&mut a, r#"{"type":"rules","rules":"nonesuch"}"#)["type"],
        "error"
    );
}

#[test]
fn each_kind_of_question_is_answered() {
    let mut a = Asker::new(Some(push()), Vec::new(), false);
    let r = ask(
        &mut a,
        r#"{"type":"query","question":"contract","round":1,"melds":[["7S","7H","7D"],["9C","9D","JK"]]}"#,
    );
    assert_eq!(r["meets"], true, "{r}");
    let r = ask(
        &mut a,
        r#"{"type":"query","question":"contract","round":1,"melds":[["7S","7H","7D"]]}"#,
    );
    assert_eq!(r["meets"], false, "{r}");
    let r = ask(
        &mut a,
        r#"{"type":"query","question":"laydown","round":1,"hand":["7S","7H","7D","9C","9D","JK","KS"]}"#,
    );
    assert_eq!(r["possible"], true, "{r}");
    assert_eq!(r["melds"].as_array().unwrap().len(), 2);
    let r = ask(
        &mut a,
        r#"{"type":"query","question":"score","cards":["JK","KS","5D"]}"#,
    );
    assert!(r["points"].as_u64().unwrap() > 0, "{r}");
    let r = ask(
        &mut a,
        r#"{"type":"query","question":"lay-off","meld":"run [6H 7H 8H]","card":"9H"}"#,
    );
    assert_eq!(r["fits"], true, "{r}");
    let r = ask(
        &mut a,
        r#"{"type":"query","question":"lay-off","meld":"run [6H 7H 8H]","card":"9S"}"#,
    );
    assert_eq!(r["fits"], false, "{r}");
}

#[test]
fn bad_questions_say_what_is_wrong() {
    let mut a = Asker::new(Some(push()), Vec::new(), false);
    for (text, said) in [
        (r#"{"type":"query"}"#, "`question`: missing"),
        (r#"{"type":"query","question":"why"}"#, "unknown question"),
        (
            r#"{"type":"query","question":"meld","cards":["7X"]}"#,
            "`cards[0]`",
        ),
        (
            r#"{"type":"query","question":"contract","round":99,"melds":[]}"#,
            "deals 1 to",
        ),
        (
            r#"{"type":"query","question":"lay-off","meld":"run [6H 7S 9D]","card":"9H"}"#,
            "`meld`",
        ),
    ] {
        let r = ask(&mut a, text);
        assert_eq!(r["type"], "error", "{text}");
        assert!(r["message"].as_str().unwrap().contains(said), "{text}: {r}");
    }
}

#[test]
fn generated_questions_are_answered_and_read_back_alike() {
    let l = push();
    let qs = generate::questions(&l, 4, 300, 5, &[]);
    assert_eq!(qs.len(), 300);
    for k in KINDS {
        assert!(qs.iter().any(|q| q.kind() == k), "no {k} question drawn");
    }
    for q in &qs {
        let again = Question::parse(&q.to_json()).unwrap();
        assert_eq!(&again, q);
        answer(&l, q).unwrap_or_else(|e| panic!("{}: {e}", q.text()));
    }
}

#[test]
fn every_generated_question_is_one_the_reference_answers() {
    let l = push();
    for q in generate::questions(&l, 4, 10000, 1, &[]) {
        if let Err(e) = answer(&l, &q) {
            panic!("{}: {e}", q.text());
        }
    }
}
