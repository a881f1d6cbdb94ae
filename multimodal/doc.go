// Package multimodal trains an image encoder, a tabular backbone (MLP or
// GRANDE) and a fusion head end to end on images plus tabular rows.
//
// # Data
//
// LoadHAM10000 reads the HAM10000 folder of the shared data (ham10000.csv
// and 10,015 64×64 PNGs, decoded in parallel and kept as 8-bit CHW arrays:
// 123 MB instead of 492 MB as float32). Its tabular features are age
// (numeric, missing allowed), sex and localization (categorical); dx_type
// and dataset leak the label and are never features; lesion_id is the group
// key. LoadCSV reads any CSV whose rows name images. StratifiedGroupKFold
// and GroupSplit split rows stratified by class and grouped, so that no
// lesion spans training and test.
//
// Batches are converted to normalised float32 (per-channel mean and standard
// deviation of the training images) by a Batcher, in parallel over the
// samples of a batch and one batch ahead of training in a background
// goroutine, with random augmentation (the 8 symmetries of the square,
// shifts, small rotations; bilinear sampling) drawn from a stream per
// (seed, epoch, sample), so results do not depend on the number of cores.
//
// # Network
//
//	image:   conv3×3/2 → BN → ReLU → [pool → conv3×3 → BN → ReLU]… → global average pool   (body)
//	         → dense → ReLU                                                                   (top, the encoder's last layer)
//	tabular: MLP (dense → ReLU …) or a GRANDE layer (nn.Tree: E trees whose leaves hold an
//	         embedding vector, instance-wise leaf weights)
//	fusion:  concat(top, tabular) → dropout → dense → class logits
//
// Fit trains in two stages when the model has an image branch: the encoder
// (body → top → image head) is pretrained on the image task with
// augmentation; then the fusion network is trained with the body frozen and
// only its last layer (top) fine-tuned, as the thesis fine-tuned only the
// last layer of a pretrained ConvNeXt. With the body frozen its pooled
// features are computed once per split. Config.FineTuneAll trains the whole
// encoder instead. Image-only (Tabular "") and tabular-only (Image false)
// models come from the same code. All stages use one AdamW (package optim)
// over all parameter groups — the neural layers in one group with weight
// decay, every GRANDE tensor in its own group with GRANDE's learning rates —
// softmax cross-entropy with balanced class weights, and early stopping on
// the validation loss with the best weights (and batch-norm statistics)
// restored.
//
// Model is the network (JSON save/load of every weight); Trained adds the
// tabular preprocessing, the class names, the training CSV's image and label
// columns and the training facts, and predicts from an image file plus a raw
// CSV row (PredictFile) or from a whole CSV file with its image folder
// (PredictCSV, whose errors name the line and the image file or column at
// fault; CSVPredictions.Score gives macro ROC-AUC, accuracy, balanced
// accuracy and macro F1). Summary describes the architecture and parameter
// counts. IsTrainedFile tells a multimodal model file from the gdt-model
// files of package modelfile, so that `gdt predict`, `gdt eval MODEL` and
// `gdt show` accept both. TabularLearner is the "mlp" learner kind of
// package model.
package multimodal
