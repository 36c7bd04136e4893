/** A short two-note chime for a reply the visitor may not be looking at (the widget's playSound setting). */
export function chime(): void {
  try {
    const Audio = window.AudioContext;
    if (!Audio) return;
    const audio = new Audio();
    [660, 880].forEach((frequency, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      const at = audio.currentTime + i * 0.12;
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.08, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.3);
    });
    setTimeout(() => void audio.close(), 800);
  } catch {
    // Browsers refuse audio before the visitor interacted with the page: the badge still shows.
  }
}
