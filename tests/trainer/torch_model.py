"""The trainer's model in PyTorch, loading the trainer's canonical (Keras-layout) weights."""
import numpy as np
import torch
import torch.nn.functional as F


class TutorialCNN(torch.nn.Module):
    def __init__(self, h, w, c, classes=10):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(c, 32, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(32, 32, 3)
        self.conv3 = torch.nn.Conv2d(32, 64, 3, padding=1)
        self.conv4 = torch.nn.Conv2d(64, 64, 3)
        ph, pw = ((h - 2) // 2 - 2) // 2, ((w - 2) // 2 - 2) // 2
        self.pooled = (ph, pw)
        self.fc1 = torch.nn.Linear(ph * pw * 64, 512)
        self.fc2 = torch.nn.Linear(512, classes)

    def forward(self, x_nhwc, dropout=False):
        x = x_nhwc.permute(0, 3, 1, 2)
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.dropout(F.max_pool2d(x, 2), 0.25, dropout)
        x = F.relu(self.conv3(x))
        x = F.relu(self.conv4(x))
        x = F.dropout(F.max_pool2d(x, 2), 0.25, dropout)
        x = x.permute(0, 2, 3, 1).reshape(x.shape[0], -1)  # Keras flattens NHWC
        x = F.dropout(F.relu(self.fc1(x)), 0.5, dropout)
        return self.fc2(x)  # logits

    def modules_in_keras_order(self):
        return [("conv2d_1", self.conv1), ("conv2d_2", self.conv2), ("conv2d_3", self.conv3),
                ("conv2d_4", self.conv4), ("dense_1", self.fc1), ("dense_2", self.fc2)]

    def load_keras(self, get):
        """get(layer, name) -> numpy array in Keras layout (conv HWIO, dense (in, out))."""
        with torch.no_grad():
            for layer, m in self.modules_in_keras_order():
                k = np.asarray(get(layer, "kernel"), dtype=np.float32)
                if k.ndim == 4:
                    m.weight.copy_(torch.from_numpy(k.transpose(3, 2, 0, 1).copy()))
                else:
                    m.weight.copy_(torch.from_numpy(k.T.copy()))
                m.bias.copy_(torch.from_numpy(np.asarray(get(layer, "bias"), dtype=np.float32)))

    def keras_tensors(self, which="param"):
        """Yields (layer, name, numpy array in Keras layout) of parameters or their grads."""
        for layer, m in self.modules_in_keras_order():
            for name, p in (("kernel", m.weight), ("bias", m.bias)):
                t = (p if which == "param" else p.grad).detach().numpy()
                if name == "kernel":
                    t = t.transpose(2, 3, 1, 0) if t.ndim == 4 else t.T
                yield layer, name, t


def flat_get(buf, params):
    table = {(p["layer"], p["name"]): p for p in params}

    def get(layer, name):
        p = table[(layer, name)]
        n = int(np.prod(p["shape"]))
        return buf[p["offset"]:p["offset"] + n].reshape(p["shape"])
    return get
