/** The text of `prof-lens --help`: enough for a newcomer to run each command. */
export const HELP = `prof-lens: look inside RL rollout dumps with the PROF filter (arXiv 2509.03403)

Usage:
  prof-lens report <file> [--json] [options]
      What PROF keeps and drops in each prompt's group, why, and which correct
      answers look like false positives (reached by distrusted steps).
  prof-lens filter <file> -o <kept.jsonl> [--decisions <decisions.jsonl>] [options]
      Offline PROF curation: write the kept rollouts (original bytes of their lines)
      and, optionally, one decision line per rollout.
  prof-lens score <file> -o <scored.jsonl> (--model <dir> | --url <endpoint>) [options]
      Add step_scores from a process reward model (ONNX folder or vLLM server), or from a
      chat model judging the first wrong step (--scorer critic --url <base>).
  prof-lens grade <cases.jsonl>
      Answer equivalence: reads {"pred","gold"} lines, writes {"equal": bool} lines.
  prof-lens eval <labelled files>... [--labels FILE] [--threshold X] [--sweep] [--calibrate]
                 [--model <dir> | --url <endpoint>]
      How well a step scorer finds the first wrong step (ProcessBench error-accuracy,
      correct-accuracy and F1; one subset per file), and how often its low-step flag is right.
      Default scorer: the step scores the files carry, else the embedded checker; --scorer
      critic --url <base> measures a chat model used as a critic. --labels: your own labels
      (a <dump>.prof-labels.json sidecar or ProcessBench-shaped items), matched to the dump's
      rollouts by content. --calibrate: store the F1-best threshold for this scorer (by what
      the model is) in the cache folder, with the held-out F1 of a seeded split (--seed);
      report, filter, eval and audit then use it unless --threshold is given.
  prof-lens audit <dump> (--critic <url> | --labels FILE) [--sample N] [--seed N] [--yes] [--json]
      The PROF paper's false-positive audit on your dump: the share of correct answers with a
      flawed step (judged by a critic or your labels; 95% Wilson interval) and what PROF does
      with them (bottom half by consistency; its decisions at the current --m). The critic is
      asked only after you agree: on a terminal you are asked; elsewhere add --yes.
  prof-lens trend <run>... [--json | --csv] [--jobs N] [--validation] [options]
      Per training step of each run (a folder of step files as the trainer lays it out:
      verl's {global_step}.jsonl, TRL's completions/completions_{step}.parquet, NeMo-RL's
      train_data_step{N}.jsonl, prime-rl's step_N/train/all/traces.jsonl, open-instruct's
      shards, ROLL's rollout_dump_data.step_{N}.jsonl, AReaL's rollout/{version}/,
      SkyRL's dumped_evals/global_step_{N}_evals/, step folders such as
      grpo_step_000100/; the folder above a run reads the run inside it and says which;
      or one file whose records carry "step"; --validation: the folder's
      validation dumps as a run of their own): accuracy, groups
      all correct / all wrong, PROF kept and dropped by reason, suspected false
      positives, step counts H, response length, AUROC. Summaries are cached per file,
      so a re-run reads only new or changed files; --jobs N: at most N worker threads
      (default one per core; fewer when little is left to summarise).
  prof-lens health <run|file>... [--json]
      Is the run being gamed? Each detector (length growth and length-limit hits, loops,
      format gaming, the reward shown to the policy before it answers, process-score
      inflation, groups with no GRPO signal, garbled text, entropy collapse, train/inference
      mismatch) says fired, quiet or not available, with its onset step, its severity and the
      rollouts that show it (file:line and the span). On one file only the detectors that
      judge each rollout run; the output says which ones a run would add.
  prof-lens compare <a> <b> [--json] [options]
      Two dumps prompt by prompt: per prompt, the pass rate on each side and its change,
      the consistency of each side's best kept rollout, suspected false positives; largest
      fall first, prompts on one side only counted. A side is a rollout file, a run folder
      with a step (runs/grpo@40: its files named for step 40), or a file of several steps
      with one (all.jsonl@40: records whose step/global_step is 40). Prompts align by their
      question with whitespace normalised; a question asked with several golds is told
      apart by its gold.
  prof-lens rules <file> [--json] [--rule-param RULE.name=value]... [options]
      Every curation rule on the file side by side (PROF, GRPO, PRIME's accuracy band, GFPO,
      FAPO, Resample-on-Correct): kept and dropped, correct/incorrect kept, suspected false
      positives let through, groups dropped whole, and every two rules' kept overlap.
  prof-lens doctor [--model <dir>] [--url <endpoint>]... [--scorer critic] [--providers LIST] [--json]
      Check the set-up: versions, execution providers, a model folder (files, manifest,
      tokenizer, inputs/outputs, a timed one-rollout smoke score), each endpoint (GET
      /v1/models, one /pooling request, or a critic judging a tiny solution with a
      planted error). Exit 1 when a check failed.

Input: JSONL (one rollout per line, or one prompt with a responses array per line),
a JSON array, or parquet (TRL's completions). verl (legacy and v1), TRL, NeMo-RL,
prime-rl, open-instruct, ROLL, AReaL, SkyRL and converted slime dumps, generic prompt/response/answer/score
files, chat messages, PRM800K, ProcessBench and Math-Shepherd are recognised without
options; a prompt that is a rendered chat gives its last user turn as the question.
A binary file (.pt, .arrow, .safetensors) is named, with how to convert it.

Options:
  --m N               rollouts kept per group (default 4)
  --remove N          rollouts removed per group instead of --m (groups with n <= N are dropped)
  --variant both|pos  incorrect rollouts removed by highest step scores (both, default) or at random (pos)
  --seed N            seed for --variant pos (default 0)
  --penalty card|reference
                      step-count penalty: card (default) H <= 1 or H >= Hλ; reference H < 2 or H > 30
  --lambda X          penalty weight λ (default 10)
  --max-steps N       Hλ (default 30)
  --aggregate mean|min|sum   how step scores make one score (default mean)
  --rule NAME         curation rule: prof (default), grpo, prime, gfpo, fapo, roc (report, filter,
                      trend, compare; docs/curation-rules.md) · --rule-param name=value  one of its parameters
  --threshold X       a step below this is a low step (default: the calibrated one for the
                      scorer, else 0.5)
  --scorer auto|file|checker|onnx|http|critic
                      auto (default): scores in the file, else the embedded checker (or the model);
                      critic: a chat model at --url (OpenAI-compatible /v1/chat/completions)
  --split RULE        double-newline (default), newline, step-markers, ki, regex:<pattern>
  --field ROLE=PATH   read a role from a JSON path, e.g. --field response=extra.text
                      roles: prompt response responses gold outcome outcomes group stepScores steps
                      (--field outcome=format_reward names a TRL table's outcome column)
  --tokenizer DIR     a folder with the tokenizer.json that decodes token-id traces (open-instruct);
                      default: the model the run's metadata names, in the Hugging Face cache
  --false-positive-rules LIST   which rules mark a suspected false positive
                      (comma-separated: prof-dropped,weak-step,bottom-half; default all)
  --json              machine-readable output (trend: also --csv)
  --model DIR         a PRM exported to ONNX (folder with model.onnx, tokenizer.json, prof-lens.json)
  --url URL           a server's base URL: vLLM /pooling (PRM), or /v1/chat/completions with --scorer
                      critic; repeat for several servers of one model (the least busy gets each request)
  --model-name NAME   the served model (default: the first /v1/models lists)
  --timeout S         seconds a request to a server may take, every attempt and wait (default 120)
  --max-tokens N      the critic's max_tokens per answer (default 4096)
                      API key: the PROF_LENS_API_KEY environment variable (never an option)
  --providers LIST    ONNX execution providers to try, e.g. cuda,cpu (default per platform; cpu always last)
  --threads N         ONNX intra-op threads · --concurrency N  requests in flight per server (http, critic)
  --jobs N            at most N threads judge the embedded checker's steps (default one per core for a
                      file of 4 MB or more; 1: the command's own thread); trend: at most N workers
  --cache-dir DIR     score and trend cache (default ~/.cache/prof-lens) · --no-cache  do not read or write it

Exit codes: 0 success · 1 the input had unreadable lines (the rest was processed) · 2 usage or file
error, or a server that cannot be used or answers in the wrong shape.

Example:
  prof-lens report examples/gsm-rollouts.jsonl
  prof-lens filter examples/gsm-rollouts.jsonl -o kept.jsonl --decisions decisions.jsonl --m 4
  prof-lens compare runs/grpo@40 runs/grpo@80
`;
