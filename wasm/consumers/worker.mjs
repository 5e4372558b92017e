// The Cloudflare Workers consumer: bundled by esbuild with the workerd
// conditions and served by workerd. GET / plays the scenario (setup, a
// placement, …) and answers the transcript and Ecaz's view.
import { play } from "./out/play.mjs";
import scenario from "./scenario.json";

export default {
  async fetch() {
    return Response.json(play(scenario));
  },
};
