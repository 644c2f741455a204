import type { CharacterSpec } from '../character.ts';
import { alma } from './alma.ts';
import { deerWoman } from './deer-woman.ts';
import { elf } from './elf.ts';
import { golem } from './golem.ts';
import { robot } from './robot.ts';
import { robotina } from './robotina.ts';
import { samuraiF } from './samurai-f.ts';
import { vampireF } from './vampire-f.ts';
import { witch } from './witch.ts';

/** Every character the forge makes, by model id (`default` is `/model.glb`). */
export const CHARACTERS: Record<string, CharacterSpec> = {
  golem,
  witch,
  elf,
  robot,
  samuraiF,
  deerWoman,
  vampireF,
  robotina,
  default: alma,
};
