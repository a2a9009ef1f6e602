"""A Doc-PP style harness: ask a (vision-)language model about documents under a
non-disclosure policy with several strategies (default, CoT, revision, DVA, guard), judge
each answer for leakage and faithfulness (LLM judge or the rule checker), and tabulate."""
