import type { Lexicon } from './lexicon.ts';

/** English emotion words (lower case). Contractions keep their apostrophe: "can't". */
export const ENGLISH_LEXICON: Lexicon = {
  words: {
    happy: `happy happi* glad joy* delight* great:0.7 wonderful lovely love:0.8 loved:0.8 loving:0.6
      enjoy* fun:0.6 cheer* pleased pleasure smil* laugh*:0.6 proud grateful thankful awesome:0.8
      fantastic nice:0.5 good:0.4 fine:0.3 content blessed yay:0.8 cool:0.4 passed:0.5 best:0.4
      haha* lol:0.6 lmao:0.6 glad`,
    sad: `sad sadness unhappy depress* cry* tears lonely alone:0.6 miss:0.7 missed:0.6 missing:0.5
      hurt*:0.7 heartbroken broken:0.6 grief griev* mourn* lost:0.5 loss:0.7 died:0.8 death:0.7
      empty:0.7 hopeless miserable down:0.3 upset:0.6 disappoint* gloomy awful:0.6 terrible:0.6
      bad:0.4 tired:0.4 exhausted:0.4 bored:0.4 failed:0.6 sorrow blue:0.3`,
    angry: `angry anger mad:0.8 furious fury rage* annoy* irritat* hate* hating pissed outrag* frustrat*
      livid resent* yell*:0.5 scream*:0.4 stupid:0.6 idiot*:0.7 damn:0.5 unfair:0.7 disgust*:0.8
      infuriat* hostile`,
    fearful: `afraid scared scary fear* terrif* frighten* anxious anxiety nervous worri* worry panic*
      overwhelm* stress* tense uneasy dread* horrif* insecure concerned:0.7 alarm*:0.5 threat*:0.5
      danger*:0.5 phobia insomnia:0.5`,
    excited: `excit* thrill* amazing:0.8 incredible:0.7 wow:0.8 omg:0.6 pumped stoked hyped hype eager:0.7
      ecstatic woohoo yippee finally:0.5 won:0.6 win:0.4 party:0.4 celebrat*:0.6 unbelievable:0.6`,
    calm: `calm* relax* peace* serene seren* quiet:0.6 rest resting rested restful chill*:0.7 comfortable:0.6
      cozy cosy tranquil* meditat* breath*:0.3 soothing gentle:0.4 easy:0.3 slow:0.2`,
  },
  phrases: {
    happy: 'made my day:0.8, had a great time',
    sad: 'passed away, feel down:0.8, feeling down:0.8, broke up:0.7, let me down:0.6',
    angry: 'sick of, fed up, drives me crazy, makes me mad',
    fearful: "can't sleep:0.6, cannot sleep:0.6, freaking out:0.8",
    excited: "can't wait, cannot wait, cant wait, let's go:0.6, can't believe:0.7",
    calm: 'at ease, at peace',
  },
  negators:
    "not no never nor hardly without don't doesn't didn't isn't aren't wasn't weren't can't won't cannot dont isnt cant",
  negationBreakers: 'stop help',
  intensifiers: 'very so really extremely super too totally incredibly truly quite deeply absolutely',
};
