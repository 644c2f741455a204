/**
 * The speech baseline: espeak-ng (wasm) and the MP3 encoder (lamejs) called directly, in this
 * process, with no server, socket or queue around them — what one clause costs at the least.
 * The packages are the ones Alma's builtin synthesiser uses (server/src/engines/speech).
 */
import { Mp3Encoder } from '@breezystack/lamejs';

interface ESpeakWorker {
  set_voice(name: string): number;
  synthesize(text: string, callback: (samples: Int16Array) => unknown): void;
}
// The package ships no types (server/src/engines/speech/espeak-ng.ts declares what it uses).
const ESPEAK: string = '@echogarden/espeak-ng-emscripten';
const SAMPLE_RATE = 22_050;
const KBPS = 48;

export interface DirectSpeech {
  /** Speaks `text` and encodes it as MP3; answers the CPU it took (µs) and the MP3's size. */
  speak(text: string): { cpuUs: number; bytes: number; samples: number };
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
    const encoder = new Mp3Encoder(1, SAMPLE_RATE, KBPS);
    let bytes = 0;
    let samples = 0;
    for (const block of blocks) {
      samples += block.length;
      bytes += encoder.encodeBuffer(block).length;
    }
    bytes += encoder.flush().length;
    const { user, system } = process.cpuUsage(started);
    return { cpuUs: user + system, bytes, samples };
  };
  speak('Hola.'); // the first call compiles the wasm paths
  return { speak };
}
