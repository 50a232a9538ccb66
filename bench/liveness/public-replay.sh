#!/usr/bin/env bash
# Fills the real screen-replay part of the public-sample cache (never committed; README "Real screen
# replays"): the bona fide and screen-replay captures that students of a liveness tutorial recorded with
# their own camera and committed to public GitHub repositories (no licence file in any of them: local
# measurement only). Every source is pinned to a commit; both classes of a source come from the same
# camera and session, so a cue that separates them is not a camera difference.
#
# Usage: bench/liveness/public-replay.sh <mirror root> [out dir]
#   <mirror root>: holds one git dir per source at <root>/<owner>+<name>/repo (the layout of the search
#   tool's fetch; bare clones placed there are fine). Out dir: $BIOSTATION_LIVENESS_PUBLIC, else
#   .cache/liveness-public. Needs ffmpeg/ffprobe (Debian package ffmpeg) for the videos.
# Writes <out>/silentface-image_T2.jpg (a bona fide phone photo), <out>/vietmoney-*.{jpg,png} (three
# attacks, three bona fide) and <out>/replay/<source>/{live,attack}/*: 'video' sources as up to 30 frames spread evenly over
# the video (JPEG, ffmpeg -q:v 2; full frames, the face with its context), 'crop' sources as every k-th
# face crop the tutorial's script saved (tight detector boxes, as NUAA's: up to 30 per class).
set -euo pipefail
root=${1:?mirror root holding <owner>+<name>/repo git dirs}
out=${2:-${BIOSTATION_LIVENESS_PUBLIC:-.cache/liveness-public}}/replay
command -v ffmpeg > /dev/null || { echo "ffmpeg not found (apt-get install ffmpeg)" >&2; exit 1; }
FRAMES=30

git_of() {
  local g="$root/$1/repo"
  [ -d "$g/.git" ] && g="$g/.git"
  git --git-dir="$g" cat-file -e "$2^{commit}" 2> /dev/null || { echo "$1: commit $2 not in $g" >&2; exit 1; }
  echo "$g"
}
# video <source name> <owner+name> <commit> <path> <live|attack>
video() {
  local g tmp n step d
  g=$(git_of "$2" "$3")
  d="$out/$1/$5"
  mkdir -p "$d"
  tmp=$(mktemp --suffix=".${4##*.}")
  git --git-dir="$g" show "$3:$4" > "$tmp"
  n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$tmp")
  step=$(( n / FRAMES > 0 ? n / FRAMES : 1 ))
  ffmpeg -v error -y -i "$tmp" -vf "select=not(mod(n\,$step))" -vsync vfr -frames:v "$FRAMES" -q:v 2 "$d/$(basename "${4%.*}")-%03d.jpg"
  rm -f "$tmp"
}
# crops <source name> <owner+name> <commit> <folder> <live|attack>
crops() {
  local g d files n step
  g=$(git_of "$2" "$3")
  d="$out/$1/$5"
  mkdir -p "$d"
  files=$(git --git-dir="$g" ls-tree -r --name-only "$3" "$4/" | sort -V)
  n=$(echo "$files" | wc -l)
  step=$(( (n + FRAMES - 1) / FRAMES ))
  echo "$files" | awk -v s="$step" 'NR%s==1 || s==1' | while read -r f; do
    git --git-dir="$g" show "$3:$f" > "$d/$(basename "$f")"
  done
}

rm -rf "$out"
# Full-frame videos, both classes from one camera: a phone screen held to a laptop webcam (Apfol, lestari15);
# a phone filming a laptop screen, the live video from the same phone (tranvanluyt2203).
video apfol Apfol+liveness-detection-opencv dcd748aa2433fef72df4be2f700f0eb3dc3dbb44 videos/real2.webm live
video apfol Apfol+liveness-detection-opencv dcd748aa2433fef72df4be2f700f0eb3dc3dbb44 videos/fake2.webm attack
video lestari15 lestari15+CNN-face-detection 42bf8ed3b42ad5c34f74a27e9e1fab9561393151 videos/real.mp4 live
video lestari15 lestari15+CNN-face-detection 42bf8ed3b42ad5c34f74a27e9e1fab9561393151 videos/fake.mp4 attack
video tranvanluyt tranvanluyt2203+face_anti_spoofing 2d3c2c2000c1a99008f76c7e5890cc10f924efae videos/real.mp4 live
video tranvanluyt tranvanluyt2203+face_anti_spoofing 2d3c2c2000c1a99008f76c7e5890cc10f924efae videos/fake.mp4 attack
# A phone filming a monitor (moiré visible), the live video from the same phone.
video wolf-huo WOLF-huo+face_liveness 10f016cc04cc2d0008fee794273684428533d3b3 videos/eff17845a21796d55db31abd0579ac76.mp4 live
video wolf-huo WOLF-huo+face_liveness 10f016cc04cc2d0008fee794273684428533d3b3 videos/089ebaf677f4790cae56915cb67a1fa3.mp4 attack
# Bona fide only: this source's fake video shows the live person beside the phone (the dominant face is live).
video zubair ZubairCracksCode+anit-spoofing 08f1212b8e5bd16cb69ec23c79e001f528fb20ac videos/real.mov live
# Tight face crops saved by the tutorial's gather_examples.py from each student's real and replayed video
# (crop-pyimagesearch: the tutorial author's own set as copied by D-sourav-M044; sets that share files with
# it or with another source were left out: jtboing/liveness-web-demo, saikan45/..., ShivamYadav09/...).
# The crops' 'fake' classes are screens (phone or monitor) filmed by the same camera as the 'real' class.
for spec in \
  "krzysiek Krzysiek354+Python_Face_Detection 0c749195d053752e7d10cff516a568aa17b98c2c" \
  "trickyf0x TrickyF0x+twoFactorLivenessDetection 97724b8d169fde476e7bd3e3358ba48935ae559c" \
  "vishal VishalkrishnaBlaze+Liveness-detection 55194aa88a682d3df18891fee9d3a663d37ca850" \
  "alexcamargo alexcamargoweb+liveness-detection dbeccd32d2000b98667407ad4948933b9748342d" \
  "manikantha Manikantha-M+Face-Liveness-detection-using-Deeplearning-and-OpenCV f0bfa80d46d7660e7102d2d2a96d5f52102241c2" \
  "aksultan AksultanMukhanbet+recognize_with_python 07ae9051ad67307e34ef16024af03f11663b7093" \
  "shubhamlala ShubhamLala+Liveliness-Detection_CNN 82075ef13df147465ab58701addf65d206f12314" \
  "neonipun neonipun+CV_PROJECT 21a1d14eddf8570a7992ae0296951bd2bfc98e98" \
  "nuredinali nuredinali+Face-recognition-with-liveness-detection-and-recognizing-unknown-face-added. f06c24234bdbe9d7d0388a900b1503564418bd41" \
  "pyimagesearch D-sourav-M044+Face_recognition b83629412a03a68c24e7cc52ffbee578162816ce"; do
  read -r name repo commit <<< "$spec"
  crops "crop-$name" "$repo" "$commit" dataset/real live
  crops "crop-$name" "$repo" "$commit" dataset/fake attack
done
# A bona fide phone photo: Silent-Face's image_T2 (Apache-2.0), in its repository until cfb56f1 removed it.
g=$(git_of minivision-ai+Silent-Face-Anti-Spoofing c3e2048f55eff8d37c445dd949ec119ec97343e7)
git --git-dir="$g" show c3e2048f55eff8d37c445dd949ec119ec97343e7:images/sample/image_T2.jpg > "$(dirname "$out")/silentface-image_T2.jpg"
# Labelled test images of vietmoney/face-anti-spoofing (Apache-2.0): fake_002 a printed photo held by
# hand, fake_003 a recapture of true_003 (same person, same framing), fake_001 a recaptured selfie;
# true_001/002 bona fide webcam frames of another camera.
g=$(git_of vietmoney+face-anti-spoofing 82b8ce816d1fa40013001a08932a283976d92250)
for f in fake_001.jpg fake_002.jpg fake_003.jpg true_001.jpg true_002.jpg true_003.png; do
  git --git-dir="$g" show "82b8ce816d1fa40013001a08932a283976d92250:data/test/$f" > "$(dirname "$out")/vietmoney-$f"
done
for s in "$out"/*/; do
  echo "$(basename "$s"): live $(ls "$s/live" 2> /dev/null | wc -l), attack $(ls "$s/attack" 2> /dev/null | wc -l)"
done
