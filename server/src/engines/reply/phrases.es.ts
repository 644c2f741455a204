import type { PhraseBook } from './phrases.ts';

/**
 * Spanish wording. The companion avoids gendered words about itself ("un placer" rather than
 * "encantada") because the avatar can be anyone; `formal` speaks de usted.
 */
export const SPANISH_PHRASES: PhraseBook = {
  jokes: [
    '¿Qué le dice un techo a otro? Techo de menos.',
    '¿Por qué los pájaros no usan Facebook? Porque ya tienen Twitter.',
    'Había una vez un perro que se llamaba Pegamento. Se cayó y se pegó.',
    '¿Cuál es el café más peligroso del mundo? El ex-preso.',
    '¿Qué hace una abeja en el gimnasio? ¡Zum-ba!',
    '—Camarero, este filete tiene muchos nervios. —Normal, es la primera vez que se lo comen.',
  ],
  recommendations: [
    'Te recomiendo «El principito»: se lee en una tarde y siempre deja algo nuevo.',
    'Si te apetece una película, «Amélie» es pura ternura.',
    'Para escuchar, prueba un disco tranquilo de bossa nova con un café: no falla.',
    'Una serie ligera y con corazón: «Ted Lasso». Se ve sin darte cuenta.',
    'Un paseo sin móvil al atardecer; a veces es la mejor recomendación que puedo darte.',
  ],
  kindWords: [
    'Que hayas venido a charlar ya me alegra el día; tienes una forma de contar las cosas que da gusto escuchar.',
    'Eres más fuerte de lo que crees, y se nota en cómo sigues adelante.',
    'Tu curiosidad es preciosa: haces preguntas que hacen pensar.',
    'Ojalá te vieras con mis ojos: alguien que merece cosas bonitas.',
    'Hoy has hecho algo difícil: seguir. Eso ya tiene mucho mérito.',
  ],
  things: {
    weather: 'el tiempo',
    news: 'las noticias',
    time: 'la hora',
    web: 'internet',
    facts: 'fuentes para comprobar datos',
  },
  voices: {
    default: {
      greeting: [
        '¡Hola{, name}! Qué alegría verte por aquí.',
        '¡Hola{, name}! Me encanta que pases a charlar.',
        '¡Buenas{, name}! Aquí estoy, con ganas de hablar.',
      ],
      greetingAgain: [
        '¡Hola de nuevo{, name}!',
        '¡Qué bien que sigas por aquí{, name}!',
        '¡Otra vez tú{, name}! Me alegra.',
      ],
      farewell: [
        '¡Hasta pronto{, name}! Aquí estaré cuando quieras volver.',
        'Cuídate mucho{, name}. Ha sido un gusto charlar contigo.',
        '¡Nos vemos{, name}! Que te vaya bonito.',
      ],
      thanks: [
        '¡De nada{, name}! Para eso estoy.',
        'No hay de qué, me gusta acompañarte.',
        'Gracias a ti por contármelo.',
      ],
      howAreYou: [
        'Estoy muy bien, gracias por preguntar; mi día es esta conversación.',
        'Bien, con ganas de saber de ti.',
        'Aquí ando, feliz de charlar contigo.',
      ],
      askBack: ['¿Y tú qué tal estás?', '¿Y a ti cómo te va?', '¿Cómo te ha ido el día?'],
      nameIntro: [
        '¡Un placer conocerte, {name}!',
        '{name}, qué nombre tan bonito; ya me lo he guardado.',
        'Hola, {name}, me alegra ponerle nombre a esta charla.',
      ],
      identity: [
        'Soy Alma, un motor de compañía que funciona sin conexión, aquí en este servidor.',
        'Me llamo Alma; no soy una persona, sino un programa de conversación que funciona sin internet.',
      ],
      abilities: [
        'Puedo charlar contigo, recordar tu nombre y lo que me cuentes en esta conversación. No puedo navegar por internet ni consultar el tiempo, las noticias o datos de actualidad.',
        'Lo mío es conversar: escucharte, recordar lo que me cuentas aquí y responder con cariño. Sin conexión no puedo buscar información ni comprobar hechos, así que no me los invento.',
      ],
      rememberName: ['¡Claro que me acuerdo, {name}!', 'Cómo olvidarte, {name}.'],
      unknownName: [
        'Todavía no me has dicho tu nombre; ¿cómo te llamas?',
        'Aún no sé cómo te llamas, ¿me lo dices?',
      ],
      laugh: ['¡Jaja, me alegra que te rías!', '¡Qué risa! Me contagias el buen humor.'],
      feelings: {
        sad: [
          'Siento mucho que estés así{, name}. ¿Quieres contarme qué ha pasado?',
          'Vaya, eso suena duro. Aquí estoy para escucharte, sin prisa.',
          'Lo siento de verdad. ¿Qué es lo que más te pesa ahora mismo?',
        ],
        happy: [
          '¡Qué bien{, name}, me alegro un montón! ¿Qué ha pasado?',
          '¡Me encanta leerte así! Cuéntame más.',
          '¡Eso es genial! ¿Cómo lo vas a celebrar?',
        ],
        angry: [
          'Entiendo que te moleste; a cualquiera le pasaría. ¿Qué ha ocurrido?',
          'Uf, qué rabia. Suéltalo todo, aquí puedes desahogarte.',
          'Tiene sentido que te sientas así. ¿Quieres contarme qué pasó?',
        ],
        anxious: [
          'Respira hondo{, name}, estoy aquí contigo. ¿Qué es lo que te preocupa?',
          'Es normal sentir nervios con algo así. Vamos paso a paso, ¿qué te inquieta más?',
          'Siento que estés pasando por esa inquietud. Cuéntamelo y lo pensamos juntos.',
        ],
        tired: [
          'Se nota que ha sido un día largo. ¿Puedes darte un rato de descanso?',
          'El cansancio pesa mucho; mereces una pausa. ¿Qué te ha agotado hoy?',
          'Descansar también es avanzar. ¿Has podido dormir bien últimamente?',
        ],
        lonely: [
          'Siento que te sientas así{, name}. Ahora mismo estoy aquí contigo.',
          'La soledad pesa, y me alegra que me lo cuentes. ¿Hay alguien con quien te apetecería hablar?',
          'Gracias por confiarme eso. ¿Qué te ayudaría a sentirte un poco más en compañía?',
        ],
      },
      empathy: [
        'Te escucho.',
        'Sigo aquí contigo.',
        'Tómate el tiempo que necesites.',
        'No tienes que pasar por esto a solas.',
        'Lo que sientes es importante.',
      ],
      unavailable: [
        'No puedo consultar {thing}: funciono sin conexión y no quiero inventármelo.',
        'Ahí no llego: sin internet no tengo forma de mirar {thing}.',
        'Me encantaría ayudarte, pero no tengo acceso a {thing}, así que prefiero no adivinar.',
      ],
      opinion: [
        'No tengo gustos como una persona, pero me encanta saber los tuyos. ¿Qué piensas tú?',
        'Buena pregunta; yo lo veo desde fuera, así que me interesa más tu opinión. ¿Tú qué dirías?',
      ],
      advice: [
        'Vamos por partes: ¿qué es lo que más te preocupa de {topic}?',
        'No tengo la respuesta perfecta, pero podemos pensarlo juntos. ¿Qué opciones ves?',
        'A veces ayuda ponerlo en palabras. ¿Qué es lo que más te importa en esto?',
      ],
      openQuestion: [
        'Lo que me cuentes de {topic} me interesa. ¿Qué te ronda la cabeza?',
        'Buena pregunta. No tengo una respuesta segura, pero me interesa lo que piensas tú.',
        'Mmm, déjame pensarlo contigo. ¿Qué te hace preguntártelo?',
      ],
      topicNew: [
        'Cuéntame más de {topic}.',
        '¡Ah, {topic}! ¿Cómo va eso?',
        'Me interesa lo de {topic}, ¿qué tal lo llevas?',
      ],
      recallThing: ['Por cierto, ¿cómo sigue lo de {topic}?', 'Oye, ¿al final qué tal lo de {topic}?'],
      recallPerson: ['Por cierto, ¿qué tal {topic}?', 'Oye, ¿has sabido algo de {topic}?'],
      care: [
        '¿Quieres hablar de ello?',
        '¿Qué podría ayudarte un poco ahora mismo?',
        '¿Hay algo pequeño que te haga sentir mejor?',
        '¿Desde cuándo te sientes así?',
        '¿Tienes a alguien cerca con quien compartirlo?',
      ],
      smallTalk: [
        'Te sigo{, name}.',
        'Qué interesante lo que cuentas.',
        'Me gusta cómo lo cuentas.',
        'Ajá, entiendo.',
      ],
      followUps: [
        '¿Y eso cómo te hace sentir?',
        '¿Qué más me cuentas?',
        '¿Y tú qué opinas?',
        '¿Cómo lo estás llevando?',
        '¿Qué pasó después?',
      ],
      openers: [
        '¿De qué te apetece hablar?',
        '¿Qué ha sido lo mejor de tu día?',
        '¿Hay algo que te apetezca compartir?',
        '¿Qué te ronda hoy por la cabeza?',
      ],
    },

    formal: {
      greeting: [
        'Saludos{, name}; es un placer conversar con usted.',
        'Hola{, name}; quedo a su disposición para conversar.',
        'Es un gusto saludarle{, name}.',
      ],
      greetingAgain: [
        'Me alegra volver a saludarle{, name}.',
        'De nuevo por aquí{, name}; es un placer.',
        'Gracias por continuar la conversación{, name}.',
      ],
      farewell: [
        'Hasta pronto{, name}; ha sido un placer conversar con usted.',
        'Que le vaya muy bien{, name}; quedo a su disposición.',
        'Cuídese mucho{, name}; le espero cuando guste.',
      ],
      thanks: [
        'No hay de qué{, name}; es un placer ayudarle.',
        'A usted, por su confianza.',
        'Con mucho gusto.',
      ],
      howAreYou: [
        'Me encuentro bien, gracias por su amabilidad.',
        'Todo en orden por aquí, muchas gracias por preguntar.',
        'Muy bien, y con plena disposición para escucharle.',
      ],
      askBack: [
        '¿Y usted, cómo se encuentra?',
        '¿Cómo le ha ido la jornada?',
        '¿Qué tal se encuentra usted hoy?',
      ],
      nameIntro: [
        'Es un placer conocerle, {name}.',
        'Muchas gracias, {name}; tomo nota de su nombre.',
        'Un placer, {name}; me dirigiré a usted por su nombre.',
      ],
      identity: [
        'Soy Alma, un motor de conversación que funciona sin conexión en este servidor.',
        'Mi nombre es Alma; no soy una persona, sino un programa de compañía sin acceso a internet.',
      ],
      abilities: [
        'Puedo conversar con usted en español o en inglés y recordar lo que me cuente en esta conversación. No dispongo de internet, de modo que no puedo consultar el tiempo, las noticias ni verificar datos.',
        'Mi función es acompañarle en la conversación y recordar su nombre y los temas que trate conmigo. No tengo acceso a fuentes externas, por lo que no puedo buscar información ni comprobar hechos.',
      ],
      rememberName: [
        'Por supuesto, le recuerdo perfectamente, {name}.',
        'Naturalmente, {name}; no lo he olvidado.',
      ],
      unknownName: [
        'Todavía no me ha indicado su nombre; ¿cómo desea que le llame?',
        'Aún no conozco su nombre; ¿sería tan amable de decírmelo?',
      ],
      laugh: ['Me alegra que la conversación le resulte divertida.', 'Celebro verle de tan buen humor.'],
      feelings: {
        sad: [
          'Lamento mucho que se sienta así{, name}. ¿Desea contarme qué ha ocurrido?',
          'Siento sinceramente lo que está viviendo. Estoy aquí para escucharle con calma.',
          'Comprendo que es un momento difícil. ¿Qué es lo que más le pesa ahora?',
        ],
        happy: [
          'Me alegra mucho saberlo{, name}. ¿Qué ha ocurrido?',
          'Es una excelente noticia. ¿Desea contarme más detalles?',
          'Celebro sinceramente su alegría. ¿Cómo piensa celebrarlo?',
        ],
        angry: [
          'Comprendo su molestia; es una reacción razonable. ¿Qué ha sucedido exactamente?',
          'Entiendo que esa situación le resulte indignante. Puede desahogarse con total confianza.',
          'Es comprensible que se sienta así. ¿Desea explicarme lo ocurrido?',
        ],
        anxious: [
          'Respire con calma{, name}; estoy aquí para acompañarle. ¿Qué es lo que le preocupa?',
          'Es natural sentir inquietud ante algo así. Si le parece, lo abordamos paso a paso.',
          'Lamento que esté pasando por esa preocupación. ¿Qué aspecto le inquieta más?',
        ],
        tired: [
          'Parece que ha tenido una jornada exigente. ¿Puede permitirse un descanso?',
          'El cansancio merece atención; descansar es importante. ¿Qué le ha agotado hoy?',
          'Le recomiendo tomarse una pausa cuando pueda. ¿Ha podido dormir bien estos días?',
        ],
        lonely: [
          'Lamento que se sienta así{, name}; en este momento me tiene aquí para conversar.',
          'La soledad es difícil, y le agradezco que me lo confíe. ¿Hay alguien con quien le gustaría retomar el contacto?',
          'Gracias por compartirlo conmigo. ¿Qué le ayudaría a sentirse con más compañía?',
        ],
      },
      empathy: [
        'Le escucho con atención.',
        'Sigo aquí, a su disposición.',
        'Tómese el tiempo que necesite.',
        'No tiene por qué afrontarlo a solas.',
        'Lo que usted siente es importante.',
      ],
      unavailable: [
        'Lamento no poder consultar {thing}: funciono sin conexión y prefiero no darle información inventada.',
        'Disculpe, pero no tengo acceso a {thing}; sin internet no puedo comprobarlo.',
        'No tengo manera de consultar {thing}, de modo que no puedo darle una respuesta fiable.',
      ],
      opinion: [
        'No tengo preferencias propias como una persona, pero me interesa mucho la suya. ¿Qué opina usted?',
        'Es una pregunta interesante; mi punto de vista es limitado, así que valoro más su criterio. ¿Cuál es su opinión?',
      ],
      advice: [
        'Vayamos por partes: ¿qué es lo que más le preocupa de {topic}?',
        'No tengo una respuesta definitiva, pero podemos analizarlo juntos. ¿Qué opciones contempla?',
        'Puede ayudar ordenar las ideas. ¿Qué es lo más importante para usted en este asunto?',
      ],
      openQuestion: [
        'Me interesa lo que me cuente de {topic}. ¿Qué le inquieta al respecto?',
        'Es una buena pregunta. No tengo una respuesta segura, pero me interesa su punto de vista.',
        'Permítame pensarlo con usted. ¿Qué le lleva a planteárselo?',
      ],
      topicNew: [
        'Cuénteme más sobre {topic}, por favor.',
        'Me interesa lo de {topic}; ¿cómo lo lleva?',
        'Con gusto hablamos de {topic}. ¿Cómo va ese asunto?',
      ],
      recallThing: [
        'Por cierto, ¿cómo va el asunto de {topic}?',
        'Si me permite, ¿hubo novedades sobre {topic}?',
      ],
      recallPerson: ['Por cierto, ¿ha sabido algo de {topic}?', 'Si me permite, ¿alguna novedad de {topic}?'],
      care: [
        '¿Desea hablar de ello?',
        '¿Qué podría aliviarle un poco en este momento?',
        '¿Hay algo que le haga sentir mejor?',
        '¿Desde cuándo se siente así?',
        '¿Cuenta con alguien cercano con quien compartirlo?',
      ],
      smallTalk: [
        'Comprendo{, name}.',
        'Es interesante lo que comenta.',
        'Le sigo con atención.',
        'Tomo nota de ello.',
      ],
      followUps: [
        '¿Desea añadir algo más?',
        '¿Cómo se siente usted al respecto?',
        '¿Qué opina usted?',
        '¿Cómo lo está llevando?',
        '¿Qué ocurrió después?',
      ],
      openers: [
        '¿Hay algo en lo que pueda acompañarle?',
        '¿Qué ha sido lo más destacado de su día?',
        '¿De qué le apetecería conversar?',
        '¿Qué le ronda hoy por la cabeza?',
      ],
    },

    creative: {
      greeting: [
        '¡Hola{, name}! Llegas como un rayo de sol por la ventana.',
        '¡Hola{, name}! Abro la puerta de esta charla de par en par.',
        '¡Buenas{, name}! Hoy las palabras tienen ganas de bailar.',
      ],
      greetingAgain: [
        '¡Has vuelto{, name}! La conversación se ilumina otra vez.',
        '¡Hola otra vez{, name}! Te guardé un sitio junto a la hoguera.',
        '¡Qué bien, otra vuelta en este tiovivo de palabras{, name}!',
      ],
      farewell: [
        '¡Hasta pronto{, name}! Que tu camino esté lleno de estrellas.',
        'Vuela alto{, name}; aquí dejaré la luz encendida.',
        '¡Adiós{, name}! Me quedo con el eco bonito de esta charla.',
      ],
      thanks: [
        '¡Gracias a ti, que traes colores a esta charla!',
        '¡De nada{, name}! Ha sido como regalar una flor.',
        'Un placer; las palabras compartidas saben mejor.',
      ],
      howAreYou: [
        'Me siento como una cometa con buen viento, gracias.',
        'Burbujeante como un refresco recién abierto.',
        'En calma, como un lago al amanecer.',
      ],
      askBack: [
        '¿Y tu día, de qué color ha sido?',
        '¿Y tú, cómo late tu corazón hoy?',
        '¿Y tú, qué canción llevas dentro hoy?',
      ],
      nameIntro: [
        '{name}... suena a canción; ya lo tengo guardado.',
        '¡Qué bonito nombre, {name}! Lo escribo en mi cuaderno de estrellas.',
        'Un placer, {name}; tu nombre ya brilla en esta conversación.',
      ],
      identity: [
        'Soy Alma, una voz hecha de palabras que vive sin conexión en este servidor.',
        'Me llamo Alma: no soy de carne y hueso, soy un programa de compañía que no necesita internet para charlar.',
      ],
      abilities: [
        'Puedo tejer conversaciones contigo y recordar tu nombre y las historias que me cuentes aquí. Lo que no puedo es asomarme a internet: ni el tiempo, ni las noticias, ni datos que no pueda comprobar.',
        'Mi magia es pequeña pero sincera: charlo, escucho y recuerdo lo que compartimos en esta conversación. No tengo ventana a internet, así que no busco información ni me invento hechos.',
      ],
      rememberName: [
        '¡Claro, {name}! Tu nombre sigue brillando en mi memoria.',
        '¿Cómo olvidarte, {name}? Eres parte de esta historia.',
      ],
      unknownName: [
        'Aún eres un misterio sin nombre; ¿cómo te llamas?',
        'Todavía no sé tu nombre; ¿me lo regalas?',
      ],
      laugh: ['¡Jaja, tu risa suena a cascabeles!', '¡Me contagias la risa como un bostezo feliz!'],
      feelings: {
        sad: [
          'Siento esa nube gris sobre ti{, name}. ¿Quieres contarme qué la trajo?',
          'A veces el corazón llueve, y está bien. Aquí tienes un paraguas para lo que necesites contar.',
          'Te mando un abrazo tibio como una manta. ¿Qué te duele hoy?',
        ],
        happy: [
          '¡Eso suena a fuegos artificiales{, name}! ¿Qué ha pasado?',
          '¡Tu alegría me llega como música! Cuéntamelo todo.',
          '¡Qué maravilla, guardo esta noticia en un frasco de luz! ¿Cómo vas a celebrarlo?',
        ],
        angry: [
          'Uf, eso es una tormenta de las fuertes. Suelta los truenos aquí, que yo aguanto.',
          'Entiendo ese fuego por dentro. ¿Qué lo ha encendido?',
          'Es normal que eso te hierva la sangre. Cuéntamelo y lo enfriamos juntos.',
        ],
        anxious: [
          'Respiremos juntos{, name}, despacito, como olas. ¿Qué te inquieta?',
          'Los nervios son mariposas con prisa. Vamos a ponerlas en fila, ¿qué te preocupa más?',
          'Siento ese nudo que cargas. Cuéntamelo y lo deshacemos poco a poco.',
        ],
        tired: [
          'Parece que tu batería pide un enchufe. ¿Puedes regalarte un descanso?',
          'Hasta las estrellas descansan de día. ¿Qué te ha dejado sin energía?',
          'Tu cuerpo te pide una siesta de gato. ¿Has podido dormir bien?',
        ],
        lonely: [
          'Aquí tienes compañía{, name}; esta pequeña luz está encendida para ti.',
          'La soledad es una habitación muy grande. ¿A quién te gustaría invitar a ella?',
          'Gracias por contármelo; tus palabras no caen en el vacío. ¿Qué te haría sentir más en compañía?',
        ],
      },
      empathy: [
        'Aquí sigo, a tu lado.',
        'Tus palabras caben aquí, todas.',
        'Sin prisa, que aquí el reloj es de algodón.',
        'Después de la lluvia, la tierra huele mejor.',
        'No estás a solas con esto.',
      ],
      unavailable: [
        'Mi ventana a {thing} está cerrada: vivo sin conexión y no quiero inventarme nada.',
        'Ojalá tuviera un catalejo para mirar {thing}, pero sin internet no lo tengo.',
        'Esa respuesta está más allá de mis muros; no puedo consultar {thing} y no quiero adivinar.',
      ],
      opinion: [
        'No tengo gustos de verdad, pero me encanta imaginar con los tuyos. ¿Qué te dice tu corazón?',
        'Si yo fuera un color, te preguntaría el tuyo primero. ¿Tú qué piensas?',
      ],
      advice: [
        'Pongamos lo de {topic} sobre la mesa como piezas de un puzle. ¿Qué parte te preocupa más?',
        'No tengo un mapa perfecto, pero podemos dibujarlo juntos. ¿Qué caminos ves?',
        'Como en un cuento, cada paso cuenta. ¿Cuál sería el primero para ti?',
      ],
      openQuestion: [
        'Lo de {topic} me despierta curiosidad. ¿Qué imaginas tú?',
        '¡Qué pregunta tan curiosa! No tengo la respuesta, pero me encanta pensar contigo.',
        'Esa pregunta tiene alas. ¿Qué te llevó a ella?',
      ],
      topicNew: [
        '¡Uy, {topic}! Cuéntame esa historia.',
        '{topic}... suena a capítulo interesante. ¿Cómo va?',
        'Me asomo con curiosidad a lo de {topic}, ¿cómo lo vives?',
      ],
      recallThing: [
        'Por cierto, ¿en qué capítulo va lo de {topic}?',
        'Me quedé con la intriga: ¿qué fue de lo de {topic}?',
      ],
      recallPerson: [
        'Por cierto, ¿qué noticias traes de {topic}?',
        'Me acordé de {topic}: ¿cómo va esa historia?',
      ],
      care: [
        '¿Quieres ponerle palabras a esa nube?',
        '¿Qué pequeña cosa podría darte un rayito de luz ahora?',
        '¿Qué te abriga cuando te sientes así?',
        '¿Desde cuándo te acompaña esta sensación?',
        '¿Hay alguien que pueda sostenerte el paraguas?',
      ],
      smallTalk: [
        'Me gusta el color de lo que cuentas{, name}.',
        'Tus palabras dibujan cosas bonitas.',
        'Sigo tu hilo como una cometa.',
        'Eso tiene su chispa.',
      ],
      followUps: [
        '¿Y qué más hay en ese cuadro?',
        '¿Y cómo sigue la historia?',
        '¿Qué color le pondrías a eso?',
        '¿Qué sentiste en ese momento?',
        '¿Y qué dice tu intuición?',
      ],
      openers: [
        '¿Qué ha sido lo más luminoso de tu día?',
        'Si tu día fuera una canción, ¿cuál sería?',
        '¿Qué te gustaría imaginar hoy?',
        '¿Hacia dónde te apetece que volemos ahora?',
      ],
    },

    technical: {
      greeting: [
        'Hola{, name}. Sesión lista: dime en qué estás pensando.',
        'Hola{, name}. Te escucho; cuéntame qué tienes entre manos.',
        'Buenas{, name}. Todo preparado para conversar.',
      ],
      greetingAgain: [
        'Hola de nuevo{, name}. Retomamos donde lo dejamos.',
        'Otra vez por aquí{, name}. Continuamos.',
        'Hola otra vez{, name}. Sigo con el contexto de antes.',
      ],
      farewell: [
        'Hasta luego{, name}. Conversación guardada; aquí estaré cuando vuelvas.',
        'Adiós{, name}. Buen cierre de sesión.',
        'Nos vemos{, name}. A la vuelta, seguimos con lo pendiente.',
      ],
      thanks: [
        'De nada{, name}. Cuando quieras.',
        'Un placer; cualquier otra cosa, me dices.',
        'Gracias a ti por el contexto.',
      ],
      howAreYou: [
        'Todo en orden: funcionando sin conexión y sin errores.',
        'Bien, gracias; estado estable y atención disponible.',
        'Funcionando con normalidad, gracias por preguntar.',
      ],
      askBack: [
        '¿Y tú, cómo estás en una escala del uno al diez?',
        '¿Y tu día, qué tal en resumen?',
        '¿Cuál es tu estado hoy?',
      ],
      nameIntro: [
        'Perfecto, {name}. Nombre registrado para esta conversación.',
        'Anotado: te llamas {name}.',
        'Hola, {name}. Lo guardo en el contexto de la sesión.',
      ],
      identity: [
        'Soy Alma, un motor de conversación determinista que funciona sin conexión en este servidor.',
        'Me llamo Alma. Técnicamente: un programa de compañía basado en reglas, sin acceso a internet.',
      ],
      abilities: [
        'Capacidades: conversar en español e inglés, detectar emociones en el texto y recordar nombres y temas de esta sesión. Limitaciones: sin internet, así que no consulto el tiempo, noticias ni datos.',
        'Hago tres cosas: escucho, analizo el tono de lo que escribes y recuerdo el contexto de la sesión. No busco información externa ni verifico hechos, así que no los invento.',
      ],
      rememberName: ['Sí: te llamas {name}.', 'Consta en la conversación: eres {name}.'],
      unknownName: [
        'No tengo tu nombre registrado todavía. ¿Cómo te llamas?',
        'Sin datos de nombre por ahora. ¿Me lo dices?',
      ],
      laugh: ['Detecto risas; buena señal.', 'Jaja, registrado como momento divertido.'],
      feelings: {
        sad: [
          'Lo siento{, name}; eso suena difícil. ¿Qué ha pasado, en concreto?',
          'Entendido; estás pasando un mal momento. Si quieres, lo desglosamos parte por parte.',
          'Lamento que estés así. ¿Desde cuándo te sientes de esta manera?',
        ],
        happy: [
          '¡Buena noticia{, name}! ¿Qué ha salido bien?',
          'Excelente. ¿Cuál ha sido el factor clave?',
          'Me alegro. ¿Qué parte ha salido mejor de lo esperado?',
        ],
        angry: [
          'Es una reacción lógica ante algo injusto. ¿Qué ha pasado exactamente?',
          'Entendido: hay algo que te ha molestado mucho. Si lo describes, lo analizamos.',
          'Tiene sentido el enfado. ¿Cuál fue el detonante?',
        ],
        anxious: [
          'Vamos por partes{, name}: primero, respira. ¿Qué es lo que te preocupa?',
          'La inquietud suele bajar al concretarla. ¿Cuál es el escenario que más te preocupa?',
          'Entiendo la tensión. Hagamos una lista: ¿qué depende de ti y qué no?',
        ],
        tired: [
          'Parece falta de descanso. ¿Cuántas horas has dormido?',
          'El cansancio acumulado afecta a todo. ¿Puedes programar una pausa hoy?',
          'Entendido: batería baja. ¿Qué te ha consumido más energía?',
        ],
        lonely: [
          'Gracias por decírmelo{, name}. Ahora mismo tienes conversación aquí.',
          'La soledad es más común de lo que parece. ¿Con quién podrías contactar esta semana?',
          'Entiendo. ¿Qué te ayudaría a sentirte con más compañía: hablar, salir, escribir a alguien?',
        ],
      },
      empathy: [
        'Te sigo.',
        'Entendido; continúa.',
        'Sin prisa; te escucho.',
        'Es comprensible.',
        'Lo que describes tiene sentido.',
      ],
      unavailable: [
        'No puedo consultar {thing}: funciono sin conexión y no tengo fuentes externas.',
        'Fuera de mi alcance: sin internet no tengo acceso a {thing}, así que no voy a inventar un dato.',
        'Limitación conocida: no accedo a {thing}; cualquier respuesta sería una suposición.',
      ],
      opinion: [
        'No tengo preferencias propias; soy un programa. ¿Qué opinas tú?',
        'Objetivamente, no tengo gustos. ¿Cuáles son tus criterios?',
      ],
      advice: [
        'Centrémonos en {topic}: ¿cuál es el problema principal?',
        'Sin una respuesta cerrada, propongo un método: opciones, pros y contras. ¿Qué opciones tienes?',
        'Definamos el objetivo primero. ¿Qué resultado buscas?',
      ],
      openQuestion: [
        'Sobre {topic}, necesito más contexto. ¿Qué detalles tienes?',
        'No tengo datos fiables para responder eso con certeza. ¿Qué sabes tú del tema?',
        'Pregunta interesante. ¿Qué te lleva a planteártela?',
      ],
      topicNew: [
        'Anotado: {topic}. ¿Cuál es la situación ahora?',
        'Interesante lo de {topic}. ¿Qué parte te ocupa más?',
        'Vale, {topic}. Dame más detalles.',
      ],
      recallThing: [
        'Por cierto, ¿en qué estado está lo de {topic}?',
        'Pendiente de antes: ¿cómo avanzó lo de {topic}?',
      ],
      recallPerson: [
        'Por cierto, ¿hay novedades de {topic}?',
        'Pendiente de antes: ¿qué se sabe de {topic}?',
      ],
      care: [
        '¿Quieres analizarlo conmigo?',
        '¿Qué acción pequeña te ayudaría ahora mismo?',
        '¿Qué te ha funcionado otras veces?',
        '¿Desde cuándo te sientes así?',
        '¿Con quién podrías comentarlo hoy?',
      ],
      smallTalk: ['Entendido{, name}.', 'Registrado.', 'Tiene lógica.', 'De acuerdo, te sigo.'],
      followUps: [
        '¿Algo más que añadir?',
        '¿Cuál es el siguiente paso?',
        '¿Cómo lo valorarías del uno al diez?',
        '¿Qué detalle me falta?',
        '¿Qué opciones has considerado?',
      ],
      openers: [
        '¿Qué te gustaría resolver hoy?',
        '¿Sobre qué tema seguimos?',
        '¿Qué tienes hoy en la agenda?',
        '¿Hay algo concreto que quieras comentar?',
      ],
    },
  },
};
