"""A process reward model with Qwen2.5-Math-PRM-7B's layout: a Qwen2 decoder and a two-class head.

Written into the small checkpoint that scripts/build_small_qwen_prm.py makes, and loaded from
there by `AutoModel.from_pretrained(..., trust_remote_code=True)` exactly as the real checkpoint's
own module is. The head is Linear(hidden, hidden) -> ReLU -> Linear(hidden, 2), stored as
`score.0.*` and `score.2.*`, and the output's `logits` are [batch, sequence, 2]: the step score is
softmax(logits[t])[1] at each `<extra_0>` token.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from transformers import Qwen2Config, Qwen2Model, Qwen2PreTrainedModel
from transformers.utils import ModelOutput


@dataclass
class ProcessRewardOutput(ModelOutput):
    logits: torch.FloatTensor | None = None


class Qwen2ForProcessRewardModel(Qwen2PreTrainedModel):
    config_class = Qwen2Config

    def __init__(self, config: Qwen2Config):
        super().__init__(config)
        self.model = Qwen2Model(config)
        hidden = config.hidden_size
        self.score = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 2))
        self.post_init()

    def forward(self, input_ids=None, attention_mask=None, position_ids=None, use_cache=False, **kwargs):
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids,
                         use_cache=use_cache)
        return ProcessRewardOutput(logits=self.score(out.last_hidden_state))
