// When a key press reached the screen, as Chromium itself records it: each input event's
// EventLatency (its trace events in the 'input' and 'cc' categories) runs from the event's
// creation to the presentation of the frame that carries its effect, in stages: the handling on
// the main thread, the wait for the next frame to begin (BeginImplFrame, at the display's
// 16.7 ms ticks), that frame's main-thread work up to its commit, raster and activation, and the
// compositor's draw. From these, per event:
//   totalMs  key → presented (what a reader waits)
//   frameMs  the frame's own time: from the later of the handling's end and the frame's start to
//            presented. "Paints within a frame" means frameMs ≤ 16.7 ms at 60 Hz: the frame is
//            presented before the next one is due. The wait before the frame starts (0–16.7 ms,
//            by where in the display's period the key falls) is not the page's doing.
//   mainMs   within frameMs, the main thread's part (its frame, up to the commit)
// An event that changed nothing on screen ends without a frame: frameMs null.
//
// Start a trace with KEY_FRAME_CATEGORIES, press keys, then keyFrames(the trace's JSON text).

export const KEY_FRAME_CATEGORIES = ['input', 'cc', 'benchmark'];

// 64-bit ids written as JSON numbers: read them as text, or two events can seem to share an id
const BIG_IDS = /("(?:surface_frame_trace_id|display_trace_id|event_latency_id|trace_id)":)(\d+)/g;

/** The key events of a trace, in the order they were made: [{ type, totalMs, frameMs, mainMs }]. */
export function keyFrames(traceText) {
  const { traceEvents } = JSON.parse(traceText.replace(BIG_IDS, '$1"$2"'));
  const id = (e) => `${e.name} ${e.id2?.local ?? e.id2?.global ?? e.id}`;
  const open = new Map();
  const spans = []; // { name, id, start, end, args }: async begin/end pairs, in µs
  for (const e of traceEvents.filter((x) => x.ph === 'b' || x.ph === 'e').sort((a, b) => a.ts - b.ts)) {
    if (e.ph === 'b') open.set(id(e), e);
    else if (open.has(id(e))) {
      const b = open.get(id(e));
      open.delete(id(e));
      spans.push({ name: e.name, id: e.id2?.local ?? e.id2?.global ?? e.id, start: b.ts, end: e.ts, args: b.args });
    }
  }
  const stagesOf = new Map(); // an EventLatency's id → its stages
  for (const s of spans) if (s.name !== 'EventLatency') (stagesOf.get(s.id) ?? stagesOf.set(s.id, []).get(s.id)).push(s);
  return spans
    .filter((s) => s.name === 'EventLatency' && /^KEY_/.test(s.args?.event_latency?.event_type ?? ''))
    .sort((a, b) => a.start - b.start)
    .map((s) => {
      const stages = (stagesOf.get(s.id) ?? []).filter((x) => x.start >= s.start && x.end <= s.end);
      const stage = (re) => stages.find((x) => re.test(x.name));
      const handled = stage(/^RendererMainProcessing$/);
      const waited = stage(/^RendererMainFinishedTo(BeginImplFrame|SendBeginMainFrame)$/);
      const main = stage(/^(SendBeginMainFrameToCommit|RendererMainFinishedToCommit)$/);
      const drew = Boolean(stage(/^SubmitCompositorFrameToPresentationCompositorFrame$/));
      const frameStart = waited ? waited.end : handled ? handled.end : null;
      return {
        type: s.args.event_latency.event_type === 'KEY_PRESSED' ? 'keydown' : 'keyup',
        totalMs: (s.end - s.start) / 1000,
        frameMs: drew && frameStart !== null ? (s.end - frameStart) / 1000 : null,
        mainMs: drew && main ? (main.end - Math.max(main.start, frameStart ?? main.start)) / 1000 : null,
      };
    });
}
