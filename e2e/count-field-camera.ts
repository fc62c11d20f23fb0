import { execFileSync } from 'node:child_process';

/**
 * Issue 36 continuous count: a fake-camera video that shows several label PNGs one after another, each at six sizes for
 * half a second (docs/design.md §7 recipe: the code inside the 250 px box on a white 640×480 frame), so a continuous
 * scan reads each label in turn without a tap.
 */
export function labelsVideo(pngs: string[], target: string) {
  const sizes = [150, 165, 180, 195, 210, 230];
  const parts: string[] = [];
  const clips: string[] = [];
  pngs.forEach((_, k) => {
    parts.push(`[${k}:v]split=${sizes.length}${sizes.map((__, i) => `[s${k}_${i}]`).join('')}`);
    sizes.forEach((size, i) => {
      parts.push(
        `[s${k}_${i}]scale=${size}:${size},pad=640:480:(ow-iw)/2:(oh-ih)/2:white,trim=duration=0.5,setpts=PTS-STARTPTS[v${k}_${i}]`,
      );
      clips.push(`[v${k}_${i}]`);
    });
  });
  const inputs = pngs.flatMap((png) => ['-loop', '1', '-framerate', '10', '-i', png]);
  execFileSync('ffmpeg', [
    '-y',
    '-loglevel',
    'error',
    ...inputs,
    '-filter_complex',
    `${parts.join(';')};${clips.join('')}concat=n=${clips.length}:v=1:a=0,format=yuv420p[out]`,
    '-map',
    '[out]',
    '-r',
    '10',
    target,
  ]);
}
