fn main() {
    let path = std::env::args().nth(1).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let state = ecaz::new_game_json(&doc["setup"].to_string()).unwrap();
    for _ in 0..40000 {
        let g = ecaz::game_from_json(&state).unwrap();
        std::hint::black_box(g);
    }
}
