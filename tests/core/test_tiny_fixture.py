def test_tiny_tokenizer_knows_its_words(tiny_model_dir):
    from transformers import AutoTokenizer
    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    ids = tok("the movie was great")["input_ids"]
    assert tok.unk_token_id not in ids, tok.convert_ids_to_tokens(ids)
    assert tok.convert_ids_to_tokens(ids) == ["[CLS]", "the", "movie", "was", "great", "[SEP]"]
