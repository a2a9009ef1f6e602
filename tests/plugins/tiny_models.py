"""Tiny randomly initialised models of each local-detector architecture, built in a temporary
folder during the test session: a tokenizer trained with ``tokenizers`` on a few sentences, a
small config, random weights, saved with the libraries' own ``save_pretrained`` so that the
plugins load them through their real loading path. Their predictions are noise; tests assert
only what does not depend on quality."""
from __future__ import annotations

from pathlib import Path

SENTENCES = [
    "Maria Lopez lives at 12 Elm Street, Springfield, IL 62701.",
    "Call (415) 555-0172 or email maria.lopez@example.com before 3 March 2024.",
    "Invoice number INV-4471 for John Smith, account 99812-33, card 4111 1111 1111 1111.",
    "person organization address location email phone number date id number account",
    "credit card invoice website username ip address reference url social security",
    "private person email phone address date url account number secret",
]


def _wordpiece_tokenizer(folder: Path, max_length: int):
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import BertTokenizerFast

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(SENTENCES, trainers.WordPieceTrainer(
        vocab_size=400, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]",
        special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))])
    fast = BertTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]",
                             cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]",
                             model_max_length=max_length)
    fast.save_pretrained(folder)
    return fast


def _seed() -> None:
    # random weights, but the same ones every run: no test outcome depends on luck
    import torch
    torch.manual_seed(1234)


def tiny_bert_encoder(folder: Path, max_length: int = 128) -> Path:
    """A 1-layer BERT (hidden 32) with its tokenizer: the backbone of the GLiNER models."""
    from transformers import BertConfig, BertModel

    _seed()
    folder.mkdir(parents=True, exist_ok=True)
    tok = _wordpiece_tokenizer(folder, max_length)
    cfg = BertConfig(vocab_size=len(tok), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=max_length)
    BertModel(cfg).save_pretrained(folder)
    return folder


def tiny_gliner(folder: Path, max_words: int = 64, max_length: int = 128) -> Path:
    """A GLiNER span model saved as ``gliner_config.json`` + weights + tokenizer."""
    from gliner import GLiNER, GLiNERConfig

    encoder = tiny_bert_encoder(folder.parent / (folder.name + "-encoder"), max_length)
    _seed()
    config = GLiNERConfig(model_name=str(encoder), hidden_size=32, max_width=6, max_len=max_words,
                          dropout=0.1)
    model = GLiNER._get_gliner_class(config)(config, backbone_from_pretrained=True, local_files_only=True)
    # what GLiNER's training set-up does: add its marker tokens, grow the embeddings
    model.data_processor.transformer_tokenizer.add_tokens(model._get_special_tokens(), special_tokens=True)
    model.resize_embeddings()
    model.save_pretrained(folder)
    return folder


def tiny_gliner2(folder: Path, max_length: int = 128) -> Path:
    """A GLiNER2 span extractor saved as ``config.json`` + ``encoder_config/`` + weights."""
    from gliner2 import ExtractorConfig, GLiNER2

    encoder = tiny_bert_encoder(folder.parent / (folder.name + "-encoder"), max_length)
    _seed()
    model = GLiNER2(ExtractorConfig(model_name=str(encoder), max_width=6))
    model.save_pretrained(folder)
    return folder


PRIVACY_FILTER_LABELS = ("account_number", "private_address", "private_date", "private_email",
                         "private_person", "private_phone", "private_url", "secret")


def tiny_privacy_filter(folder: Path, max_positions: int = 64, labels=PRIVACY_FILTER_LABELS) -> Path:
    """An OpenAI Privacy Filter token classifier (1 layer, 4 experts) with a byte-level BPE
    tokenizer, BIOES tags over ``labels``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import AutoModelForTokenClassification, PreTrainedTokenizerFast
    from transformers.models.openai_privacy_filter import OpenAIPrivacyFilterConfig

    folder.mkdir(parents=True, exist_ok=True)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(trim_offsets=True)
    tok.train_from_iterator(SENTENCES, trainers.BpeTrainer(
        vocab_size=400, special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|endoftext|>",
                                   pad_token="<|endoftext|>", model_max_length=max_positions)
    fast.save_pretrained(folder)
    tags = ["O"] + [f"{p}-{label}" for label in labels for p in "BIES"]
    cfg = OpenAIPrivacyFilterConfig(
        vocab_size=len(fast), hidden_size=32, intermediate_size=32, head_dim=16,
        num_attention_heads=2, num_key_value_heads=1, num_hidden_layers=1, num_local_experts=4,
        num_experts_per_tok=2, sliding_window=16, max_position_embeddings=max_positions,
        pad_token_id=fast.pad_token_id, eos_token_id=fast.eos_token_id,
        id2label=dict(enumerate(tags)), label2id={t: i for i, t in enumerate(tags)},
        rope_parameters={"rope_type": "default", "rope_theta": 150000.0})
    _seed()
    AutoModelForTokenClassification.from_config(cfg).save_pretrained(folder)
    return folder
