/**
 * The speech baseline: espeak-ng (wasm) and the MP3 encoder called directly, in this process,
 * with no server, socket or queue around them — what one clause costs at the least. The packages
 * are the ones Alma's builtin synthesiser uses (server/src/engines/speech): espeak, then the
 * server's own `encodeMp3` (the reference LAME in WebAssembly, with its Info frame).
 */
import { encodeMp3 } from '../../../server/src/engines/speech/mp3.ts';

interface ESpeakWorker {
  set_voice(name: string): number;
  synthesize(text: string, callback: (samples: Int16Array) => unknown): void;
}
// The package ships no types (server/src/engines/speech/espeak-ng.ts declares what it uses).
const ESPEAK: string = '@echogarden/espeak-ng-emscripten';
export const SAMPLE_RATE = 22_050;

export interface DirectSpeech {
  /**
   * Speaks `text` and encodes it as MP3; answers the CPU it took (µs; `espeakUs` of it before
   * encoding), the MP3's size and the PCM (22 050 Hz mono).
   */
  speak(text: string): { cpuUs: number; espeakUs: number; bytes: number; samples: number; pcm: Int16Array };
}

export async function directSpeech(voice: string): Promise<DirectSpeech> {
  const { default: init } = (await import(ESPEAK)) as {
    default: () => Promise<{ eSpeakNGWorker: new () => ESpeakWorker }>;
  };
  const espeak = new (await init()).eSpeakNGWorker();
  if (espeak.set_voice(voice) !== 0) throw new Error(`espeak-ng has no voice ${voice}`);
  const speak = (text: string) => {
    const started = process.cpuUsage();
    const blocks: Int16Array[] = [];
    espeak.synthesize(text, (samples) => void blocks.push(samples));
    const spoken = process.cpuUsage(started);
    const pcm = new Int16Array(blocks.reduce((n, b) => n + b.length, 0));
    blocks.reduce((at, block) => (pcm.set(block, at), at + block.length), 0);
    const bytes = encodeMp3(pcm, SAMPLE_RATE).length;
    const { user, system } = process.cpuUsage(started);
    return { cpuUs: user + system, espeakUs: spoken.user + spoken.system, bytes, samples: pcm.length, pcm };
  };
  speak('Hola.'); // the first call compiles the wasm paths
  return { speak };
}
