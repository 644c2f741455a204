import type { Lexicon } from './lexicon.ts';

/** English emotion words (lower case). Contractions keep their apostrophe: "can't". */
export const ENGLISH_LEXICON: Lexicon = {
  words: {
    happy: `happy happi* glad joy* delight* great:0.7 wonderful lovely love:0.8 loved:0.8 loving:0.6
      enjoy* fun:0.6 cheer* pleased pleasure smil* laugh*:0.6 proud grateful thankful awesome:0.8
      fantastic nice:0.5 good:0.4 fine:0.3 content blessed yay:0.8 cool:0.4 passed:0.5 best:0.4
      haha* lol:0.6 lmao:0.6 wonderfully brilliant:0.8 superb terrific marvel* thrilled:0.7
      relieved:0.6 relief:0.6 lucky:0.6 sweet:0.4 beautiful:0.6 gorgeous:0.6 perfect:0.6 hooray hurray
      celebrate:0.4 favourite:0.5 favorite:0.5 grin* blissful bliss overjoyed jolly
      lovel* warm*:0.4 hug*:0.5 fab fabulous adorable cute:0.6`,
    sad: `sad sadness unhappy depress* cry* tears lonely alone:0.6 miss:0.7 missed:0.6 missing:0.5
      hurt*:0.7 heartbroken broken:0.6 grief griev* mourn* lost:0.5 loss:0.7 died:0.8 death:0.7
      empty:0.7 hopeless miserable down:0.3 upset:0.6 disappoint* gloomy awful:0.6 terrible:0.6
      bad:0.4 tired:0.4 exhausted:0.4 bored:0.4 failed:0.6 sorrow blue:0.3
      low:0.5 heavy:0.4 weep* sob sobb* homesick heartache* heartbreak* broke:0.4 sorry:0.3 gutted
      devastat* crushed:0.7 funeral regret* lonel* numb:0.6 drained:0.5 worthless despair* dismal
      cried pointless meaningless forgotten:0.6 nobody:0.3 abandon* rejected rough:0.4
      bleak:0.7 glum mope* grieving`,
    angry: `angry anger mad:0.8 furious fury rage* annoy* irritat* hate* hating pissed outrag* frustrat*
      livid resent* yell*:0.5 scream*:0.4 stupid:0.6 idiot*:0.7 damn:0.5 unfair:0.7 disgust*:0.8
      infuriat* hostile fuming fume* seething livid outrageous ridiculous:0.6 sick:0.3 hateful
      cross:0.4 grumpy irate enrag* bitter:0.6 sulk* ticks:0.6 ticked:0.7 snapped:0.6 rude:0.6
      unacceptable:0.7 nonsense:0.5 shout*:0.5 bloody:0.5 jerk:0.7
      interrupt*:0.6 boil*:0.6 excuses:0.5 disrespect* ignor*:0.5 selfish:0.7 liar:0.8 lied:0.6`,
    fearful: `afraid scared scary fear* terrif* frighten* anxious anxiety nervous worri* worry panic*
      overwhelm* stress* tense uneasy dread* horrif* insecure concerned:0.7 alarm*:0.5 threat*:0.5
      danger*:0.5 phobia insomnia:0.5
      scare* fright* terror horror* shak*:0.5 trembl* jitter* jumpy edgy:0.7 dreading petrified
      apprehensive restless:0.6 nightmare*:0.7 paranoi* timid:0.5 creepy:0.7 spooked panick*
      froze:0.6 frozen:0.4 races:0.5 racing:0.5 pounding:0.6 sweat*:0.4 noise:0.3 dark:0.3 knots:0.6`,
    excited: `excit* thrill* amazing:0.8 incredible:0.7 wow:0.8 omg:0.6 pumped stoked hyped hype eager:0.7
      ecstatic woohoo yippee finally:0.5 won:0.6 win:0.4 party:0.4 celebrat*:0.6 unbelievable:0.6
      buzzing:0.8 psyched ecstatic electrifying exhilarat* tickets:0.4 tomorrow:0.2 yes:0.3
      epic:0.7 insane:0.5 hyped:0.8 countdown:0.6 finals:0.3 final:0.3
      accepted:0.7 announced:0.4 tour:0.3 puppy:0.4 guess:0.3 vacation:0.4 holiday:0.4 trip:0.3 published:0.5 fly:0.3`,
    calm: `calm* relax* peace* serene seren* quiet:0.6 rest resting rested restful chill*:0.7 comfortable:0.6
      cozy cosy tranquil* meditat* breath*:0.3 soothing gentle:0.4 easy:0.3 slow:0.2
      soft:0.4 slowly:0.3 unwind* lazy:0.6 mellow still:0.3 content:0.3 cup:0.2 tea:0.3 coffee:0.2
      sunset:0.4 balanced:0.6 grounded:0.7 composed:0.7 settled:0.6 untroubled leisurely:0.8 nap:0.5
      breeze:0.4 stroll:0.5 garden:0.3 hammock:0.6 bath:0.3 book:0.2
      porch:0.4 rain:0.3 lake:0.4 birds:0.4 sunday:0.3 listening:0.2 watching:0.2 grass:0.3 newspaper:0.3
      sea:0.3 beach:0.3 waves:0.4 candle*:0.4 blanket:0.4`,
    surprised: `surpris* unexpected* astonish* speechless whoa woah shock* stun* amaz*:0.4
      gosh:0.7 forgot:0.5 wait:0.3 really:0.2 suddenly:0.5 startl* baffl* gobsmacked
      flabbergast* jaw:0.6 blindsided wha:0.6 huh:0.7 seriously:0.5 whoah`,
  },
  phrases: {
    happy:
      'made my day:0.8, had a great time, went well:0.8, going well:0.8, going really well:0.8, good mood:0.8, good news:0.8, feel good:0.8, warmed my heart, so good:0.6, over the moon, on cloud nine',
    sad: 'passed away, feel down:0.8, feeling down:0.8, broke up:0.7, let me down:0.6, heart broke, no energy:0.8, nobody cares, worn out:0.7, moving away:0.6, would have been:0.6, feel like crying, in tears',
    angry:
      'sick of, fed up, drives me crazy, makes me mad, up the wall, sick and tired, took credit:0.8, blood boil, why does nobody:0.6, without asking:0.6, ticks me off, pisses me off, had enough:0.8, last straw',
    fearful:
      "can't sleep:0.6, cannot sleep:0.6, freaking out:0.8, on edge, what if:0.5, heart races, heart racing, butterflies in:0.6, scares me, worst case:0.6",
    excited:
      "can't wait, cannot wait, cant wait, let's go:0.6, hardly wait, oh my god:0.7, so ready:0.8, counting the days, more days:0.6, guess who:0.5",
    calm: 'at ease, at peace, no rush, taking it slow, taking it easy, nothing to do:0.6, deep breath:0.6',
    surprised: `didn't expect, did not expect, never would have thought, you're kidding, no idea:0.6,
      couldn't believe, could not believe, can't believe:0.5, cannot believe:0.5, what do you mean:0.6, out of nowhere, who knew:0.8,
      no way:0.8, of all people, caught off guard, taken aback, oh my gosh:0.8, is that true:0.8, out of the blue,
      no clue:0.8, telling me:0.8, never knew, that was fast:0.7, not what i expected, oh wow:0.8, see that coming`,
  },
  negators:
    "not no never nor hardly without don't doesn't didn't isn't aren't wasn't weren't can't won't cannot dont isnt cant",
  negationBreakers: 'stop help',
  intensifiers: 'very so really extremely super too totally incredibly truly quite deeply absolutely',
};
