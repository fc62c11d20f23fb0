/** Issue 36: a counter scanning label after label hears and feels each answer without looking at the screen. */
const TONES = { ok: { hz: 1760, ms: 90 }, refused: { hz: 330, ms: 220 } } as const;

let audio: AudioContext | null = null;

/** A short beep (high when taken, low when refused) and a buzz where the phone can; silent where neither exists. */
export function signalScan(ok: boolean): void {
  const tone = ok ? TONES.ok : TONES.refused;
  if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function') navigator.vibrate(ok ? 60 : [80, 60, 80]);
  if (typeof AudioContext === 'undefined') return;
  audio ??= new AudioContext();
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.frequency.value = tone.hz;
  gain.gain.value = 0.15;
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start();
  oscillator.stop(audio.currentTime + tone.ms / 1000);
}
