// Reads JSON lines {state (a dump_state snapshot), seat, action} and answers each with
// {legal: [seat 0's, seat 1's], refusal, after}: what rules.mjs makes of the position, for
// benchmarks/colyseus_reference.py --check-rules to compare with Tavolo's own rules.
import { createInterface } from "node:readline";
import { apply, dump, legal, load } from "./rules.mjs";

for await (const line of createInterface({ input: process.stdin })) {
  const { state, seat, action } = JSON.parse(line);
  const s = load(state);
  const answer = { legal: [legal(s, 0), legal(s, 1)] };
  const why = apply(s, seat, action);
  answer.refusal = why && why[0];
  answer.after = dump(s);
  process.stdout.write(JSON.stringify(answer) + "\n");
}
