/** What a server says about the model it serves. `created` is left out: vLLM stamps it per request. */
export interface ModelFacts {
  id: string;
  root: string | null;
  maxModelLen: number | null;
  parent: string | null;
  ownedBy: string | null;
}
