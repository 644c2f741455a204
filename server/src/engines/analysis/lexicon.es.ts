import type { Lexicon } from './lexicon.ts';

/** Spanish emotion words, folded (no accents). Stems cover gender and number: content* → contenta. */
export const SPANISH_LEXICON: Lexicon = {
  words: {
    happy: `feliz felices felicidad content* alegr* genial estupend* maravill* encant* fenomenal
      fantastic* precios* bonit* lind* hermos* disfrut* gusta:0.6 gusto:0.5 orgullos* agradecid*
      satisfech* divert* guay mola chido buenisim* perfect* excelente aprobe:0.7 aprobado:0.7 logre:0.7
      amo:0.7 amor:0.6 suerte:0.5 bien:0.4 sonri* rei:0.6 risa:0.6 jaja* jeje* jiji* xd:0.6 lol:0.6`,
    sad: `trist* deprim* llor* lagrim* pena:0.8 soledad vacio vacia desanim* desesper* infeliz dolor:0.7
      duele:0.7 dolid* melancol* nostalg* murio muerte fallec* perdi:0.6 destroz* roto:0.6 rota:0.6
      decepcion* fracas* suspendi:0.7 abatid* hundid* desgracia lastima:0.6 mal:0.5 fatal:0.8
      horrible:0.6 cansad*:0.4 agotad*:0.4 aburrid*:0.4 desolad* solito:0.6 solita:0.6 sufr* amargad*`,
    angry: `enfad* enoj* furios* rabia ira irrit* molest* hart* odi* cabre* indign* coraje frustr* fastidi*
      injust* maldit* idiota estupid* mierda grit*:0.5 insoport* asco asquer* bronca cabron* joder
      cansin*:0.6 rabios* colera`,
    fearful: `miedo asust* aterr* panico nervios* ansi* preocup* angusti* agobi* estres* inquiet* temo
      temer* horror* susto insegur* insomnio:0.5 tenso tensa pavor terror* peligr*:0.5 prisa:0.4 prisas:0.4`,
    excited: `emocion* entusiasm* ilusion* increible impresionante brutal alucin* wow guau yupi vamos:0.5
      ganas:0.5 euforic* flip* impacien*:0.5 fiesta:0.4 celebr*:0.6 ganamos:0.6 gane:0.6 ganado:0.6`,
    calm: `tranquil* calma relaj* paz seren* descans* sosieg* pausad* apacible comod* placid* medit*
      respir*:0.4 silencio:0.5 suave:0.3`,
  },
  phrases: {
    happy: 'lo pase bien:0.8, me fue bien:0.8, que bien:0.8',
    sad: 'echo de menos, te extrano:0.8, me siento solo, me siento sola, estoy solo:0.8, estoy sola:0.8, me siento mal:0.8',
    angry: 'estoy harto, estoy harta, me saca de quicio, me da rabia',
    fearful: 'me da miedo, tengo miedo, no puedo dormir:0.6',
    excited: 'que ganas, por fin:0.6, no me lo puedo creer:0.8, no lo puedo creer:0.8',
    calm: 'a gusto, sin prisa:0.8, sin prisas:0.8, en calma',
  },
  negators: 'no nunca jamas ni tampoco sin',
  negationBreakers: 'paro dejo puedo',
  intensifiers:
    'muy super tan demasiado bastante realmente tremendamente mucho mucha muchisimo muchisima re mega tanto',
};
