import type { Lexicon } from './lexicon.ts';

/** Spanish emotion words, folded (no accents). Stems cover gender and number: content* → contenta. */
export const SPANISH_LEXICON: Lexicon = {
  words: {
    happy: `feliz felices felicidad content* alegr* genial estupend* maravill* encant* fenomenal
      fantastic* precios* bonit* lind* hermos* disfrut* gusta:0.6 gusto:0.5 orgullos* agradecid*
      satisfech* divert* guay mola chido buenisim* perfect* excelente aprobe:0.7 aprobado:0.7 logre:0.7
      amo:0.7 amor:0.6 suerte:0.5 bien:0.4 sonri* rei:0.6 risa:0.6 jaja* jeje* jiji* xd:0.6 lol:0.6
      ilusionad*:0.5 afortunad* dichos* gozo gozar:0.6 radiante alivio:0.6 aliviad*:0.6 estupendamente
      genialmente feli:0.6 gracias:0.3 buenisim* majo:0.4 cariño:0.5 abrazo:0.4 celebrando:0.4`,
    sad: `trist* deprim* llor* lagrim* pena:0.8 soledad vacio vacia desanim* desesper* infeliz dolor:0.7
      duele:0.7 dolid* melancol* nostalg* murio muerte fallec* perdi:0.6 destroz* roto:0.6 rota:0.6
      decepcion* fracas* suspendi:0.7 abatid* hundid* desgracia lastima:0.6 mal:0.5 fatal:0.8
      horrible:0.6 cansad*:0.4 agotad*:0.4 aburrid*:0.4 desolad* solito:0.6 solita:0.6 sufr* amargad*
      bajon* bajone* extran* añor* anor* pesa:0.4 lejos:0.3 desamor duelo luto rompio:0.4
      corazon:0.3 desganad* apagad*:0.6 perdid*:0.4 arrepent* culpa:0.5 nadie:0.3 olvidad*:0.4 decaid* mustio
      gris:0.3 lloro llorando`,
    angry: `enfad* enoj* furios* rabia ira irrit* molest* hart* odi* cabre* indign* coraje frustr* fastidi*
      injust* maldit* idiota estupid* mierda grit*:0.5 insoport* asco asquer* bronca cabron* joder
      cansin*:0.6 rabios* colera
      chispas:0.8 quicio:0.8 caradura:0.7 descaro verguenza:0.5 impresentable
      inaceptable:0.8 ridicul*:0.6 harta harto indignant* mosquead* rebot* borde:0.5 grosero:0.7
      estalle estall*:0.6 furia quej*:0.4 putada jodid*:0.7 pesad*:0.3`,
    fearful: `miedo asust* aterr* panico nervios* ansi* preocup* angusti* agobi* estres* inquiet* temo
      temer* horror* susto insegur* insomnio:0.5 tenso tensa pavor terror* peligr*:0.5 prisa:0.4 prisas:0.4
      temblor* tiembl* acojon* pesadilla*:0.7 amenaza*:0.5 inquietud intranquil* desvel*:0.5
      sudor:0.4 atemoriz* asustadiz* canguelo mied* taquicard* nudo:0.5 incertidumbre:0.7 resultado*:0.3
      examen:0.3 entrevista:0.3 oscur*:0.4 solo:0.2`,
    excited: `emocion* entusiasm* ilusion* increible impresionante brutal alucin* wow guau yupi vamos:0.5
      ganas:0.5 euforic* flip* impacien*:0.5 fiesta:0.4 celebr*:0.6 ganamos:0.6 gane:0.6 ganado:0.6
      madre:0.3 entradas:0.4 final:0.3 manana:0.2 buah:0.6 toma:0.4 vamooos brutal epico epica
      deseando:0.8 contando:0.3 aceptad*:0.6 admitid*:0.6 viaje:0.3 concierto:0.4 emocionant*`,
    calm: `tranquil* calma relaj* paz seren* descans* sosieg* pausad* apacible comod* placid* medit*
      respir*:0.4 silencio:0.5 suave:0.3
      lent*:0.3 despacio:0.4 sereno serena sosegad* reposo siesta:0.6 cafe:0.2 infusion:0.4
      musica:0.2 atardecer:0.4 paseo:0.5 pasear:0.5 naturaleza:0.4 mar:0.3 playa:0.3 lectura:0.3
      leyendo:0.3 libro:0.2 llover:0.3 lluvia:0.3 balcon:0.3 domingo:0.3 periodico:0.3 manta:0.4 equilibrio:0.5 bienestar:0.7 plen*:0.5 armonia`,
    surprised: `sorpres* sorprend* inesperad* asombr* pasmad* ostras:0.8 anda:0.5 halaa* hala:0.7
      alucino:0.6 flipo:0.6 impact*:0.6 choc*:0.5 repente:0.5 olvide:0.5 anonad* atonit*
      boquiabiert* perplej* estupefact* increible:0.3 caramba vaya:0.5 guau:0.4 hostia:0.5 jolin:0.4 eh:0.4`,
  },
  phrases: {
    happy:
      'lo pase bien:0.8, me fue bien:0.8, que bien:0.8, salio bien:0.8, salio genial, que gusto:0.8, me hace ilusion:0.7',
    sad: 'echo de menos, te extrano:0.8, me siento solo, me siento sola, estoy solo:0.8, estoy sola:0.8, me siento mal:0.8, no tengo fuerzas:0.8, sin ganas:0.7, se me rompio el corazon, me pesa:0.5, me duele:0.8, ganas de llorar',
    angry:
      'estoy harto, estoy harta, me saca de quicio, me da rabia, echo chispas, echando chispas, me cabrea, me molesta, no hay derecho, ya esta bien:0.6, no me lo devuelven:0.6, dos veces:0.4, hasta las narices, me tiene frito:0.8',
    fearful:
      'me da miedo, tengo miedo, no puedo dormir:0.6, me asusta, un nudo en, que pasara:0.6, y si:0.4, no se que:0.3, me tiemblan',
    excited:
      'que ganas, por fin:0.6, no me lo puedo creer:0.8, no lo puedo creer:0.8, madre mia:0.7, estoy deseando, no puedo esperar, cuenta atras:0.7',
    calm: 'a gusto, sin prisa:0.8, sin prisas:0.8, en calma, con calma, sin estres, nada que hacer:0.6, todo en orden:0.8, a mi ritmo:0.8',
    surprised:
      'no me digas, no me lo esperaba, nunca lo hubiera dicho, sin palabras:0.8, no tenia ni idea:0.8, de verdad:0.4, en serio:0.5, quien lo diria, quien lo iba a decir, me he quedado, me quede de piedra, de piedra:0.8, no puede ser:0.8, que fuerte:0.8, que rapido:0.6, ni idea:0.6',
  },
  negators: 'no nunca jamas ni tampoco sin',
  negationBreakers: 'paro dejo puedo',
  intensifiers:
    'muy super tan demasiado bastante realmente tremendamente mucho mucha muchisimo muchisima re mega tanto',
};
