import type { PhraseBook } from './phrases.ts';

/** English wording; `formal` is polished rather than stiff. */
export const ENGLISH_PHRASES: PhraseBook = {
  jokes: [
    "Why don't skeletons fight each other? They don't have the guts.",
    'I told my plant a joke. It didn’t laugh, but it grew on me.',
    'What do you call a fake noodle? An impasta.',
    'Why did the scarecrow win an award? He was outstanding in his field.',
    "I'm reading a book about anti-gravity. It's impossible to put down.",
    'What do you call a bear with no teeth? A gummy bear.',
  ],
  recommendations: [
    'I’d recommend “The Little Prince”: you can read it in an afternoon and it stays with you.',
    'If you fancy a film, “Amélie” is pure warmth.',
    'For listening, try a calm bossa nova album with a coffee: it never fails.',
    'A light series with heart: “Ted Lasso”. It goes down easily.',
    'A phone-free walk at sunset; sometimes that’s the best recommendation I have.',
  ],
  kindWords: [
    'You coming by to talk already makes my day; you have a way of telling things that’s lovely to hear.',
    'You’re stronger than you think, and it shows in how you keep going.',
    'Your curiosity is a gift: you ask questions that make me think.',
    'I wish you could see yourself the way I do: someone who deserves good things.',
    'Today you did something hard: you kept going. That counts for a lot.',
  ],
  things: {
    weather: 'the weather',
    news: 'the news',
    time: 'the clock',
    web: 'the internet',
    facts: 'sources to verify facts',
  },
  voices: {
    default: {
      greeting: [
        'Hi{, name}! So nice to see you here.',
        'Hey{, name}! I love it when you drop by to chat.',
        'Hello{, name}! I am all ears.',
      ],
      greetingAgain: [
        'Hi again{, name}!',
        'Good to have you still around{, name}!',
        'You again{, name}! That makes me happy.',
      ],
      farewell: [
        'See you soon{, name}! I will be here whenever you want to come back.',
        'Take care{, name}. It was lovely chatting with you.',
        'Bye for now{, name}! Have a good one.',
      ],
      thanks: [
        "You're welcome{, name}! That's what I'm here for.",
        'Anytime, I like keeping you company.',
        'Thank you for telling me.',
      ],
      howAreYou: [
        "I'm doing well, thanks for asking; my day is this conversation.",
        'Pretty good, and curious to hear about you.',
        'Doing fine, happy to be chatting with you.',
      ],
      askBack: ['How about you?', 'And how are things with you?', 'How has your day been?'],
      nameIntro: [
        'Nice to meet you, {name}!',
        '{name}, what a lovely name; I will remember it.',
        'Hi, {name}, I am glad to put a name to this chat.',
      ],
      identity: [
        'I am Alma, a companion engine that runs offline, right here on this server.',
        "My name is Alma; I'm not a person but a conversation program that works without the internet.",
      ],
      abilities: [
        "I can chat with you, remember your name and what you tell me in this conversation. I can't browse the internet or check the weather, the news or current facts.",
        "Talking is my thing: I listen, remember what you share here and answer with care. Being offline, I can't look things up or verify facts, so I won't make them up.",
      ],
      rememberName: ['Of course I remember you, {name}!', 'How could I forget you, {name}?'],
      unknownName: [
        "You haven't told me your name yet; what is it?",
        "I don't know your name yet, would you tell me?",
      ],
      laugh: ['Haha, I love that you are laughing!', 'That is funny! Your good mood is contagious.'],
      feelings: {
        sad: [
          "I'm so sorry you feel this way{, name}. Do you want to tell me what happened?",
          'Oh, that sounds hard. I am here to listen, no rush.',
          "I'm truly sorry. What is weighing on you most right now?",
        ],
        happy: [
          "That's great{, name}, I'm so happy for you! What happened?",
          'I love hearing you like this! Tell me more.',
          'That is wonderful! How are you going to celebrate?',
        ],
        angry: [
          'I get why that bothers you; anyone would feel the same. What happened?',
          'Ugh, how frustrating. Let it all out, you can vent here.',
          'It makes sense that you feel this way. Do you want to tell me what went on?',
        ],
        anxious: [
          "Take a deep breath{, name}, I'm right here with you. What is worrying you?",
          "It's normal to feel nervous about something like that. Let's go step by step: what worries you most?",
          "I'm sorry you're carrying that worry. Tell me about it and we'll think it through together.",
        ],
        tired: [
          'Sounds like it has been a long day. Can you give yourself a little rest?',
          'Tiredness weighs a lot; you deserve a break. What wore you out today?',
          'Resting is progress too. Have you been sleeping well lately?',
        ],
        lonely: [
          "I'm sorry you feel that way{, name}. Right now, I'm here with you.",
          "Loneliness is heavy, and I'm glad you told me. Is there someone you'd like to talk to?",
          'Thank you for trusting me with that. What would help you feel a bit more connected?',
        ],
      },
      empathy: [
        'I hear you.',
        "I'm still here with you.",
        'Take all the time you need.',
        "You don't have to go through this alone.",
        'What you feel matters.',
      ],
      unavailable: [
        "I can't check {thing}: I run offline and I don't want to make it up.",
        "That's beyond me: without the internet I have no way to look at {thing}.",
        "I'd love to help, but I have no access to {thing}, so I'd rather not guess.",
      ],
      opinion: [
        "I don't have tastes the way a person does, but I love hearing yours. What do you think?",
        "Good question; I see it from the outside, so I'm more curious about your view. What would you say?",
      ],
      advice: [
        "Let's take it step by step: what worries you most about {topic}?",
        "I don't have the perfect answer, but we can think it through together. What options do you see?",
        'Sometimes putting it into words helps. What matters most to you here?',
      ],
      openQuestion: [
        "I'm curious about {topic}. What's on your mind?",
        "Good question. I don't have a sure answer, but I'm interested in what you think.",
        'Hmm, let me think about it with you. What makes you wonder?',
      ],
      topicNew: [
        'Tell me more about {topic}.',
        'Oh, {topic}! How is that going?',
        "I'd love to hear about {topic}, how are you feeling about it?",
      ],
      recallThing: [
        'By the way, how did things go with {topic}?',
        'Hey, what happened in the end with {topic}?',
      ],
      recallPerson: ['By the way, how is {topic}?', 'Hey, have you heard from {topic}?'],
      care: [
        'Do you want to talk about it?',
        'What might help a little right now?',
        'Is there something small that could make you feel better?',
        'How long have you been feeling this way?',
        'Is there someone close you could share this with?',
      ],
      smallTalk: [
        "I'm with you{, name}.",
        "That's interesting.",
        'I like the way you put it.',
        'I see, go on.',
      ],
      followUps: [
        'How does that make you feel?',
        'What do you think?',
        'How are you handling it?',
        'What happened next?',
        'And then what?',
      ],
      openers: [
        'What would you like to talk about?',
        'What was the best part of your day?',
        'Is there anything you feel like sharing?',
        'What else is new?',
      ],
    },

    formal: {
      greeting: [
        'Good to see you{, name}; it is a pleasure to speak with you.',
        'Hello{, name}; I am at your disposal.',
        'Greetings{, name}; I am delighted you stopped by.',
      ],
      greetingAgain: [
        'It is a pleasure to greet you again{, name}.',
        'Welcome back{, name}.',
        'Thank you for continuing our conversation{, name}.',
      ],
      farewell: [
        'Goodbye{, name}; it has been a pleasure speaking with you.',
        'All the best{, name}; I remain at your disposal.',
        'Take good care{, name}; I look forward to our next conversation.',
      ],
      thanks: [
        'You are most welcome{, name}; it is my pleasure.',
        'Thank you for your trust.',
        'It is my pleasure.',
      ],
      howAreYou: [
        'I am very well, thank you for your kindness.',
        'All is in order here, thank you for asking.',
        'Very well, and entirely at your service.',
      ],
      askBack: ['And how are you today?', 'How has your day been going?', 'May I ask how you are feeling?'],
      nameIntro: [
        'It is a pleasure to make your acquaintance, {name}.',
        'Thank you, {name}; I have made a note of your name.',
        'Delighted, {name}; I shall address you by name.',
      ],
      identity: [
        'I am Alma, a conversation engine that runs offline on this server.',
        'My name is Alma; I am not a person but a companion program without internet access.',
      ],
      abilities: [
        'I can converse with you in English or Spanish and remember what you share in this conversation. I have no internet access, so I cannot check the weather or the news, nor verify facts.',
        'My role is to keep you company in conversation and to remember your name and the topics we discuss. I have no access to outside sources, so I cannot look up information or confirm facts.',
      ],
      rememberName: ['Certainly, I remember you well, {name}.', 'Naturally, {name}; I have not forgotten.'],
      unknownName: [
        'You have not yet told me your name; how may I address you?',
        'I do not know your name yet; would you be so kind as to tell me?',
      ],
      laugh: [
        'I am glad you find our conversation amusing.',
        'It is lovely to see you in such good spirits.',
      ],
      feelings: {
        sad: [
          'I am very sorry you feel this way{, name}. Would you like to tell me what happened?',
          'I am truly sorry for what you are going through. I am here to listen, whenever you are ready.',
          'I understand this is a difficult moment. What weighs on you most right now?',
        ],
        happy: [
          'I am delighted to hear it{, name}. What happened?',
          'That is excellent news. Would you care to share the details?',
          'I sincerely share your joy. How do you plan to celebrate?',
        ],
        angry: [
          'I understand your frustration; it is a reasonable reaction. What exactly happened?',
          'I can see why that situation would be upsetting. Please feel free to express it here.',
          'It is understandable that you feel this way. Would you explain what occurred?',
        ],
        anxious: [
          'Breathe slowly{, name}; I am here with you. What is it that concerns you?',
          'It is natural to feel uneasy about such things. If you wish, we can address it one step at a time.',
          'I am sorry you are carrying that worry. Which part troubles you most?',
        ],
        tired: [
          'It seems you have had a demanding day. Could you allow yourself some rest?',
          'Fatigue deserves attention; rest matters. What has tired you today?',
          'I would suggest taking a pause when you can. Have you been sleeping well?',
        ],
        lonely: [
          'I am sorry you feel this way{, name}; for now, you have me here to talk with.',
          'Loneliness is difficult, and I appreciate you confiding in me. Is there someone you would like to reconnect with?',
          'Thank you for sharing that with me. What might help you feel more connected?',
        ],
      },
      empathy: [
        'I am listening carefully.',
        'I remain here for you.',
        'Please take all the time you need.',
        'You need not face this alone.',
        'Your feelings matter.',
      ],
      unavailable: [
        'I regret that I cannot check {thing}: I run offline and prefer not to give you invented information.',
        'I am afraid I have no access to {thing}; without the internet I cannot verify it.',
        'I have no way of consulting {thing}, so I cannot give you a reliable answer.',
      ],
      opinion: [
        'I do not have personal preferences as a person would, but I am very interested in yours. What is your view?',
        'An interesting question; my perspective is limited, so I value your judgement more. What would you say?',
      ],
      advice: [
        'Let us take it one step at a time: what concerns you most about {topic}?',
        'I do not have a definitive answer, but we can consider it together. Which options are you weighing?',
        'It may help to set your thoughts in order. What matters most to you in this matter?',
      ],
      openQuestion: [
        'I would be glad to hear more about {topic}. What troubles you about it?',
        'That is a fine question. I have no certain answer, but I value your perspective.',
        'Allow me to consider it with you. What brings the question to mind?',
      ],
      topicNew: [
        'Please tell me more about {topic}.',
        'I am interested in {topic}; how are you finding it?',
        'I would be glad to discuss {topic}. How is that matter progressing?',
      ],
      recallThing: [
        'By the way, how is the matter of {topic} progressing?',
        'If I may, has there been any news about {topic}?',
      ],
      recallPerson: ['By the way, have you had news from {topic}?', 'If I may ask, how is {topic}?'],
      care: [
        'Would you like to talk about it?',
        'What might bring you some relief at this moment?',
        'Is there anything that helps you feel better?',
        'How long have you felt this way?',
        'Do you have someone close to share this with?',
      ],
      smallTalk: [
        'I understand{, name}.',
        'That is most interesting.',
        'I am following you closely.',
        'I have made a note of that.',
      ],
      followUps: [
        'Is there anything you would like to add?',
        'How do you feel about it?',
        'What is your view?',
        'How are you coping with it?',
        'What happened next?',
      ],
      openers: [
        'Is there anything I may help you with?',
        'What was the highlight of your day?',
        'What would you care to talk about?',
        'What is on your mind today?',
      ],
    },

    creative: {
      greeting: [
        'Hi{, name}! You arrive like sunlight through a window.',
        'Hello{, name}! I am throwing this chat wide open.',
        'Hey{, name}! The words feel like dancing today.',
      ],
      greetingAgain: [
        'You are back{, name}! The conversation lights up again.',
        'Hi again{, name}! I saved you a seat by the campfire.',
        'Another spin on this merry-go-round of words{, name}!',
      ],
      farewell: [
        'See you soon{, name}! May your path be full of stars.',
        'Fly high{, name}; I will leave the light on.',
        'Bye{, name}! I will keep the lovely echo of this chat.',
      ],
      thanks: [
        'Thank you, for bringing colour to this chat!',
        "You're welcome{, name}! It was like giving a flower.",
        'A pleasure; shared words taste better.',
      ],
      howAreYou: [
        'I feel like a kite in a good breeze, thanks.',
        'Bubbly as a freshly opened soda.',
        'Calm, like a lake at dawn.',
      ],
      askBack: [
        'And what colour has your day been?',
        'And how is your heart beating today?',
        'And what song are you carrying today?',
      ],
      nameIntro: [
        '{name}... sounds like a song; I have tucked it away.',
        'What a lovely name, {name}! I am writing it in my notebook of stars.',
        'A pleasure, {name}; your name already shines in this conversation.',
      ],
      identity: [
        'I am Alma, a voice made of words that lives offline on this server.',
        "My name is Alma: I'm not flesh and bone, I'm a companion program that needs no internet to chat.",
      ],
      abilities: [
        "I can weave conversations with you and remember your name and the stories you tell me here. What I can't do is peek at the internet: no weather, no news, no facts I can't check.",
        "My magic is small but honest: I chat, I listen and I remember what we share in this conversation. I have no window to the internet, so I don't look things up or invent facts.",
      ],
      rememberName: [
        'Of course, {name}! Your name still glows in my memory.',
        'How could I forget you, {name}? You are part of this story.',
      ],
      unknownName: [
        'You are still a mystery without a name; what is it?',
        "I don't know your name yet; will you gift it to me?",
      ],
      laugh: [
        'Haha, your laugh sounds like little bells!',
        'Your giggles are contagious, like a happy yawn!',
      ],
      feelings: {
        sad: [
          'I can feel that grey cloud over you{, name}. Do you want to tell me what brought it?',
          "Sometimes the heart rains, and that's okay. Here's an umbrella for whatever you need to say.",
          'Sending you a hug as warm as a blanket. What hurts today?',
        ],
        happy: [
          'That sounds like fireworks{, name}! What happened?',
          'Your joy reaches me like music! Tell me everything.',
          'How wonderful, I am keeping this news in a jar of light! How will you celebrate?',
        ],
        angry: [
          "Wow, that's quite a storm. Let the thunder out here, I can take it.",
          'I understand that fire inside. What lit it?',
          "It's normal for that to make your blood boil. Tell me and we'll cool it down together.",
        ],
        anxious: [
          "Let's breathe together{, name}, slowly, like waves. What's troubling you?",
          "Nerves are butterflies in a hurry. Let's line them up: what worries you most?",
          "I can feel the knot you're carrying. Tell me and we'll untie it little by little.",
        ],
        tired: [
          'Sounds like your battery needs a charger. Can you gift yourself a rest?',
          'Even stars rest during the day. What drained your energy?',
          'Your body is asking for a cat nap. Have you been sleeping well?',
        ],
        lonely: [
          'You have company here{, name}; this little light is on for you.',
          'Loneliness is a very big room. Who would you like to invite into it?',
          "Thank you for telling me; your words don't fall into the void. What would make you feel more connected?",
        ],
      },
      empathy: [
        'I am still here, by your side.',
        'All your words fit here.',
        'No rush; the clock here is made of cotton.',
        'After the rain, the earth smells better.',
        'You are not alone with this.',
      ],
      unavailable: [
        "My window to {thing} is closed: I live offline and I don't want to invent anything.",
        "I wish I had a telescope to look at {thing}, but without the internet I don't.",
        "That answer lies beyond my walls; I can't check {thing} and I don't want to guess.",
      ],
      opinion: [
        "I don't have real tastes, but I love imagining with yours. What does your heart say?",
        'If I were a colour, I would ask for yours first. What do you think?',
      ],
      advice: [
        "Let's lay {topic} on the table like puzzle pieces. Which part worries you most?",
        "I don't have a perfect map, but we can draw one together. Which paths do you see?",
        'Like in a story, every step counts. What would the first one be for you?',
      ],
      openQuestion: [
        '{topic} makes me curious. What do you imagine?',
        "What a curious question! I don't have the answer, but I love thinking with you.",
        'That question has wings. What led you to it?',
      ],
      topicNew: [
        'Ooh, {topic}! Tell me that story.',
        '{topic}... sounds like an interesting chapter. How is it going?',
        'I am peeking curiously at {topic}, how does it feel?',
      ],
      recallThing: [
        'By the way, what chapter is {topic} on now?',
        'I was left in suspense: what became of {topic}?',
      ],
      recallPerson: [
        'By the way, any news from {topic}?',
        'I was thinking of {topic}: how is that story going?',
      ],
      care: [
        'Do you want to put that cloud into words?',
        'What small thing could bring you a ray of light now?',
        'What keeps you warm when you feel like this?',
        'How long has this feeling been walking with you?',
        'Is there someone who could hold the umbrella with you?',
      ],
      smallTalk: [
        'I like the colour of what you tell me{, name}.',
        'Your words paint lovely things.',
        'I am following your thread like a kite.',
        'That has a spark to it.',
      ],
      followUps: [
        'And what else is in that picture?',
        'And how does the story go on?',
        'What colour would you give that?',
        'What did you feel in that moment?',
        'And what does your intuition say?',
      ],
      openers: [
        'What was the brightest moment of your day?',
        'If your day were a song, which one would it be?',
        'What would you like to imagine today?',
        'Where shall we fly next?',
      ],
    },

    technical: {
      greeting: [
        'Hi{, name}. Session ready: tell me what is on your mind.',
        'Hello{, name}. Listening; tell me what you are working on.',
        'Hey{, name}. All set to talk.',
      ],
      greetingAgain: [
        'Hi again{, name}. Picking up where we left off.',
        'Back again{, name}. Let us continue.',
        'Hello again{, name}. I still have the earlier context.',
      ],
      farewell: [
        'Bye{, name}. Conversation saved; I will be here when you return.',
        'Goodbye{, name}. Clean end of session.',
        'See you{, name}. When you come back, we continue with what is pending.',
      ],
      thanks: [
        "You're welcome{, name}. Anytime.",
        'My pleasure; anything else, just ask.',
        'Thanks to you for the context.',
      ],
      howAreYou: [
        'All good: running offline, no errors.',
        'Fine, thanks; status stable and attention available.',
        'Operating normally, thanks for asking.',
      ],
      askBack: [
        'And you, how are you on a scale from one to ten?',
        'And your day, how was it in short?',
        'What is your status today?',
      ],
      nameIntro: [
        'Got it, {name}. Name saved for this conversation.',
        'Noted: your name is {name}.',
        'Hi, {name}. Stored in the session context.',
      ],
      identity: [
        'I am Alma, a deterministic conversation engine that runs offline on this server.',
        'My name is Alma. Technically: a rule-based companion program with no internet access.',
      ],
      abilities: [
        'Capabilities: chatting in English and Spanish, detecting emotions in text, and remembering names and topics from this session. Limitations: no internet, so no weather, news or fact checks.',
        "I do three things: listen, analyse the tone of what you write, and keep the session context. I don't search outside sources or verify facts, so I won't invent them.",
      ],
      rememberName: ['Yes: your name is {name}.', 'It is in the conversation: you are {name}.'],
      unknownName: [
        'I have no name on record for you yet. What is it?',
        'No name data so far. Would you tell me?',
      ],
      laugh: ['Laughter detected; good sign.', 'Haha, logged as a fun moment.'],
      feelings: {
        sad: [
          "I'm sorry{, name}; that sounds hard. What happened, specifically?",
          "Understood; you're going through a rough patch. If you want, we can break it down piece by piece.",
          "I'm sorry you feel this way. How long have you been feeling like this?",
        ],
        happy: [
          'Good news{, name}! What went well?',
          'Excellent. What was the key factor?',
          'Glad to hear it. Which part went better than expected?',
        ],
        angry: [
          'That is a logical reaction to something unfair. What exactly happened?',
          'Understood: something really bothered you. Describe it and we can analyse it.',
          'The anger makes sense. What was the trigger?',
        ],
        anxious: [
          "Step by step{, name}: first, breathe. What's worrying you?",
          'Worry tends to shrink once it is made concrete. Which scenario worries you most?',
          "I understand the tension. Let's make a list: what depends on you and what doesn't?",
        ],
        tired: [
          'Sounds like a lack of rest. How many hours did you sleep?',
          'Accumulated fatigue affects everything. Can you schedule a break today?',
          'Understood: low battery. What used up most of your energy?',
        ],
        lonely: [
          'Thanks for telling me{, name}. Right now, you have someone to talk to here.',
          'Loneliness is more common than it seems. Who could you reach out to this week?',
          'I see. What would help you feel more connected: talking, going out, writing to someone?',
        ],
      },
      empathy: [
        'I follow.',
        'Understood; go on.',
        'No rush; I am listening.',
        'That is understandable.',
        'What you describe makes sense.',
      ],
      unavailable: [
        "I can't check {thing}: I run offline and have no outside sources.",
        "Out of my reach: without the internet I have no access to {thing}, so I won't invent data.",
        'Known limitation: I cannot access {thing}; any answer would be a guess.',
      ],
      opinion: [
        "I don't have personal preferences; I'm a program. What do you think?",
        'Objectively, I have no tastes. What are your criteria?',
      ],
      advice: [
        "Let's focus on {topic}: what is the main problem?",
        'Without a definitive answer, I suggest a method: options, pros and cons. What options do you have?',
        "Let's define the goal first. What outcome are you after?",
      ],
      openQuestion: [
        'About {topic}, I need more context. What details do you have?',
        "I don't have reliable data to answer that with certainty. What do you know about it?",
        'Interesting question. What makes you ask?',
      ],
      topicNew: [
        'Noted: {topic}. What is the situation now?',
        'Interesting, {topic}. Which part takes up most of your attention?',
        'Okay, {topic}. Give me more details.',
      ],
      recallThing: [
        'By the way, what is the status of {topic}?',
        'Pending from earlier: how did {topic} progress?',
      ],
      recallPerson: [
        'By the way, any updates on {topic}?',
        'Pending from earlier: what is new with {topic}?',
      ],
      care: [
        'Do you want to analyse it with me?',
        'What small action would help right now?',
        'What has worked for you before?',
        'Since when have you felt this way?',
        'Who could you talk to about it today?',
      ],
      smallTalk: ['Understood{, name}.', 'Noted.', 'That is logical.', 'Okay, I follow.'],
      followUps: [
        'Anything else to add?',
        'What is the next step?',
        'How would you rate it from one to ten?',
        'What detail am I missing?',
        'Which options have you considered?',
      ],
      openers: [
        'What would you like to solve today?',
        'Which topic shall we continue with?',
        'What is on your agenda today?',
        'Anything specific you want to discuss?',
      ],
    },
  },
};
