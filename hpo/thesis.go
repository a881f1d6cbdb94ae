package hpo

// Code below transcribes the thesis appendix tables of spec §8.1 and §8.2.
// ThesisBest returns the thesis's best hyperparameters per dataset (spec
// §8.1: GradTree, all 36 datasets of the GradTree study; §8.2: GRANDE, the
// GRANDE datasets present here) as model-kind options keyed by registry
// dataset name, with the search space's fixed options included. kind is
// "gradtree" or "grande"; other kinds have none.
func ThesisBest(kind string) map[string]map[string]string {
	out := map[string]map[string]string{}
	switch kind {
	case "gradtree":
		for _, r := range thesisGradTree {
			o := map[string]string{"depth": r[1], "lr_index": r[2], "lr_values": r[3], "lr_leaf": r[4], "loss": r[5], "poly_loss": r[6], "poly_epsilon": r[7]}
			for k, v := range spaces["gradtree"].Fixed {
				o[k] = v
			}
			out[r[0]] = o
		}
	case "grande":
		for _, r := range thesisGRANDE {
			out["grande/"+r[0]] = map[string]string{"depth": r[1], "n_estimators": r[2], "lr_weights": r[3], "lr_index": r[4],
				"lr_values": r[5], "lr_leaf": r[6], "dropout": r[7], "selected_variables": r[8], "data_subset_fraction": r[9],
				"focal_factor": r[10], "cosine_decay_steps": r[11]}
		}
	}
	return out
}

// thesisGradTree: dataset, depth, lr_index, lr_values, lr_leaf, loss,
// PolyLoss, ε (spec §8.1 table).
var thesisGradTree = [][8]string{
	{"blood-transfusion", "8", "0.010", "0.100", "0.010", "crossentropy", "false", "2"},
	{"banknote-authentication", "7", "0.050", "0.050", "0.100", "focal", "true", "2"},
	{"titanic", "10", "0.005", "0.010", "0.010", "crossentropy", "false", "2"},
	{"raisins", "10", "0.005", "0.005", "0.100", "crossentropy", "true", "5"},
	{"rice", "7", "0.050", "0.010", "0.010", "crossentropy", "false", "2"},
	{"echocardiogram", "8", "0.010", "0.050", "0.100", "crossentropy", "true", "5"},
	{"wdbc", "10", "0.050", "0.010", "0.100", "crossentropy", "true", "2"},
	{"loan-house", "8", "0.005", "0.100", "0.010", "focal", "false", "2"},
	{"heart-failure", "10", "0.005", "0.250", "0.100", "crossentropy", "false", "2"},
	{"heart-disease", "9", "0.010", "0.050", "0.005", "focal", "false", "2"},
	{"adult", "8", "0.050", "0.005", "0.050", "crossentropy", "true", "5"},
	{"bank-marketing", "8", "0.250", "0.250", "0.050", "crossentropy", "false", "2"},
	{"cervical-cancer", "8", "0.005", "0.010", "0.100", "crossentropy", "true", "2"},
	{"congressional-voting", "10", "0.005", "0.050", "0.010", "focal", "true", "5"},
	{"absenteeism", "10", "0.050", "0.010", "0.050", "focal", "true", "5"},
	{"hepatitis", "10", "0.005", "0.050", "0.010", "focal", "true", "5"},
	{"german", "7", "0.005", "0.050", "0.010", "crossentropy", "true", "2"},
	{"mushroom", "9", "0.010", "0.010", "0.050", "focal", "false", "2"},
	{"credit-card", "8", "0.050", "0.100", "0.010", "focal", "false", "2"},
	{"horse-colic", "8", "0.250", "0.250", "0.010", "focal", "false", "2"},
	{"thyroid", "8", "0.010", "0.010", "0.050", "crossentropy", "false", "2"},
	{"spambase", "10", "0.005", "0.010", "0.010", "crossentropy", "false", "2"},
	{"iris", "7", "0.005", "0.005", "0.05", "crossentropy", "false", "2"},
	{"balance-scale", "8", "0.050", "0.010", "0.10", "crossentropy", "true", "5"},
	{"car", "9", "0.010", "0.010", "0.01", "focal", "false", "2"},
	{"glass", "10", "0.050", "0.050", "0.05", "focal", "true", "5"},
	{"contraceptive", "7", "0.010", "0.050", "0.01", "crossentropy", "false", "2"},
	{"solar-flare", "8", "0.005", "0.010", "0.20", "focal", "true", "2"},
	{"wine", "10", "0.010", "0.050", "0.01", "focal", "false", "2"},
	{"zoo", "9", "0.050", "0.010", "0.10", "focal", "true", "2"},
	{"lymphography", "8", "0.050", "0.010", "0.05", "crossentropy", "true", "2"},
	{"segment", "7", "0.005", "0.005", "0.05", "crossentropy", "false", "2"},
	{"dermatology", "7", "0.010", "0.010", "0.10", "crossentropy", "true", "2"},
	{"landsat", "8", "0.005", "0.010", "0.05", "crossentropy", "true", "5"},
	{"annealing", "10", "0.250", "0.050", "0.01", "crossentropy", "false", "2"},
	{"splice", "9", "0.010", "0.005", "0.05", "crossentropy", "false", "2"},
}

// thesisGRANDE: dataset, depth, E, lr_w, lr_idx, lr_val, lr_leaf, dropout,
// sel.var, data frac, focal, cos. steps (spec §8.2 table).
var thesisGRANDE = [][12]string{
	{"dresses-sales", "4", "512", "0.0015", "0.0278", "0.1966", "0.0111", "0.25", "0.7996", "0.9779", "0", "0"},
	{"climate-simulation-crashes", "4", "2048", "0.0007", "0.0243", "0.0156", "0.0134", "0", "0.6103", "0.8956", "0", "1000"},
	{"cylinder-bands", "6", "2048", "0.0009", "0.0084", "0.0086", "0.0474", "0.25", "0.5309", "0.8825", "0", "1000"},
	{"wdbc", "4", "1024", "0.0151", "0.0140", "0.1127", "0.1758", "0.50", "0.8941", "0.8480", "0", "0"},
	{"ilpd", "4", "512", "0.0007", "0.0059", "0.0532", "0.0094", "0.50", "0.6839", "0.9315", "3", "1000"},
	{"tokyo1", "6", "1024", "0.0029", "0.1254", "0.0056", "0.0734", "0.50", "0.5849", "0.9009", "0", "1000"},
	{"qsar-biodeg", "6", "2048", "0.0595", "0.0074", "0.0263", "0.0414", "0", "0.5892", "0.8098", "0", "0"},
	{"ozone-level-8hr", "4", "2048", "0.0022", "0.0465", "0.0342", "0.0503", "0.25", "0.7373", "0.8531", "0", "1000"},
	{"madelon", "4", "2048", "0.0003", "0.0575", "0.0177", "0.0065", "0.25", "0.9865", "0.9885", "0", "100"},
	{"wilt", "6", "2048", "0.0377", "0.1471", "0.0396", "0.1718", "0.25", "0.9234", "0.8299", "0", "0"},
	{"churn", "6", "2048", "0.0293", "0.0716", "0.0179", "0.0225", "0", "0.6920", "0.8174", "0", "1000"},
	{"phoneme", "6", "2048", "0.0472", "0.0166", "0.0445", "0.1107", "0", "0.7665", "0.8694", "3", "1000"},
	{"PhishingWebsites", "6", "2048", "0.0040", "0.0118", "0.0104", "0.1850", "0", "0.9792", "0.9588", "0", "0.1"},
	{"Amazon_employee_access", "6", "2048", "0.0036", "0.0056", "0.1959", "0.1992", "0.50", "0.9614", "0.9196", "3", "0"},
	{"adult", "6", "1024", "0.0015", "0.0087", "0.0553", "0.1482", "0.50", "0.5149", "0.8448", "3", "100"},
}
