import { SYSTEM_AVATAR_IDS, systemModelUrl, type SystemAvatar, type SystemAvatarId } from '@alma/protocol';

/**
 * The eight system avatars of spec §3 (AV-1). Names and descriptions are the Spanish defaults;
 * the client shows its own translation by id (`avatars.<id>.*`).
 */
const ENTRIES: Record<SystemAvatarId, { name: string; description: string; category: 'fantasy' | 'sci-fi' }> =
  {
    golem: { name: 'Golem', description: 'Piedra antigua y corazón tranquilo.', category: 'fantasy' },
    witch: {
      name: 'Bruja',
      description: 'Sombrero alto, ojos verdes y mucha curiosidad.',
      category: 'fantasy',
    },
    elf: { name: 'Elfa', description: 'Serena, atenta y con oído fino.', category: 'fantasy' },
    robot: {
      name: 'Robot',
      description: 'Metálico, preciso y sorprendentemente amable.',
      category: 'sci-fi',
    },
    samuraiF: { name: 'Samurái', description: 'Disciplina y calma en cada palabra.', category: 'fantasy' },
    deerWoman: {
      name: 'Mujer ciervo',
      description: 'Un espíritu del bosque, dulce y sabio.',
      category: 'fantasy',
    },
    vampireF: {
      name: 'Vampiresa',
      description: 'Elegante, nocturna y muy conversadora.',
      category: 'fantasy',
    },
    robotina: { name: 'Robotina', description: 'Alegre, brillante y siempre dispuesta.', category: 'sci-fi' },
  };

export const SYSTEM_AVATARS: readonly Omit<SystemAvatar, 'portrait'>[] = SYSTEM_AVATAR_IDS.map((id) => ({
  id,
  ...ENTRIES[id],
  model: systemModelUrl(id),
}));
